import { TIMELINE_CSS } from '../timeline/style.js'
import { inlineScript } from './appScript.js'

const CSS = `
body{font:14px system-ui,sans-serif;margin:0;color:#222}
header{padding:8px 14px;background:#263238;color:#fff;display:flex;gap:12px;align-items:center}
#status{padding:1px 8px;border-radius:8px;background:#546e7a}#status.running{background:#2e7d32}
#status.paused{background:#ef6c00}
#approvals-panel{border:2px solid #ef6c00;border-radius:6px;padding:4px 10px;margin-bottom:10px;background:#fff8e1}
#approvals-panel h3{margin:4px 0}#approvals{padding-left:18px}#approvals li{margin:6px 0}
#approvals code{margin:0 6px;white-space:pre-wrap;word-break:break-all}#approvals input{min-width:180px;margin-right:4px}
#tools-panel{border:1px solid #90a4ae;border-radius:6px;padding:4px 10px;margin-bottom:10px;background:#eceff1}
#tools-panel h3{margin:4px 0}#running-tools{padding-left:18px}#running-tools li{margin:4px 0}
#running-tools [data-testid=running-tool-elapsed]{margin:0 8px;color:#555;font-variant-numeric:tabular-nums}
#transcript li .mark{margin-left:8px;padding:0 6px;border-radius:6px;font-size:11px;color:#fff;background:#8e24aa}
#transcript li.cancelled .mark{background:#c62828}
main{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,1fr);gap:14px;padding:12px 14px}
#transcript{list-style:none;padding:0;margin:0 0 10px;max-height:45vh;overflow:auto}
#transcript li{margin:4px 0;padding:5px 8px;border-radius:6px;background:#f1f3f4;white-space:pre-wrap}
#transcript li .who{font-weight:600;margin-right:6px}
#transcript li.steering-message{background:#fff3e0}#transcript li.assistant-message{background:#e8f5e9}
#transcript li.compaction,#transcript li.rollback,#transcript li.fork{background:#ede7f6;border-left:3px solid #4527a0}
#transcript li.rollback{border-left-color:#ad1457}#transcript li.fork{border-left-color:#00838f}
#transcript li .media{display:block;margin-top:4px;max-width:100%;max-height:240px}#transcript span.media{color:#555}
#transcript li.streaming{background:#e8f5e9;opacity:.85;border-left:3px solid #2e7d32}
#transcript li.rolled-back{opacity:.5;text-decoration:line-through}
#transcript details{margin-top:4px}#transcript details summary{cursor:pointer;color:#4527a0}
#composer{display:flex;gap:6px;flex-wrap:wrap}#prompt{flex:1;min-width:200px;padding:6px}
#inbox{padding-left:18px}#inbox li{margin:4px 0}#inbox .placement{color:#777;margin-right:6px}
#inbox button{font-size:11px;margin-left:3px}#error{color:#c62828;min-height:1.2em}
section.timeline-panel{padding:0 14px 14px}.scroll{overflow-x:auto}
`

/** The `serve` page: chat, waiting items, the live timeline; `script` is the bundled app. */
export const servePage = (script: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>steerable</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; connect-src 'self'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<style>${CSS}${TIMELINE_CSS}</style></head>
<body>
<header><strong>steerable</strong><span id="status" data-testid="status">connecting</span><span id="agent"></span></header>
<main>
<section><div id="approvals-panel" data-testid="approvals-panel" hidden><h3>Waiting for your approval</h3>
<ol id="approvals" data-testid="approvals"></ol></div>
<div id="tools-panel" data-testid="tools-panel" hidden><h3>Running tools</h3>
<ol id="running-tools" data-testid="running-tools"></ol></div>
<ol id="transcript" data-testid="transcript"></ol>
<div id="composer">
<input id="prompt" data-testid="prompt" autocomplete="off" placeholder="Type, then Enter to steer (a prompt while idle) or Tab to queue">
<button type="button" id="steer">Steer</button>
<button type="button" id="interrupt" data-testid="interrupt" title="Steer now: cut the answer being streamed">Interrupt</button><button type="button" id="queue">Queue</button>
<button type="button" id="cancel" data-testid="cancel">Cancel</button>
<button type="button" id="cancel-keep" data-testid="cancel-keep">Cancel, keep inbox</button>
</div><div id="error" role="alert"></div></section>
<aside><h3>Waiting</h3><ol id="inbox" data-testid="inbox"></ol></aside>
</main>
<section class="timeline-panel"><h3>Timeline</h3><div id="timeline" class="scroll" data-testid="timeline"></div>
<pre id="details" class="details">Hover or click a bar or a mark.</pre></section>
<script>${inlineScript(script)}</script>
</body></html>
`
