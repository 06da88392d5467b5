import { escapeHtml, scriptJson } from './escape.js'
import { layoutTimeline } from './layout.js'
import { TIMELINE_CSS } from './style.js'
import { hasWallTime, renderTimelineSvg, type TimeAxis } from './svg.js'
import type { TimelineRecord } from './types.js'

export type RenderOptions = {
  /** The page title; default the session id. */
  readonly title?: string
  /** The x axis shown first: `order` (default) or `wall` (when the record has times). */
  readonly axis?: TimeAxis
}

/**
 * Hover or click on a shape shows its details (message, id, outcome, the event's payload) as
 * text (never as HTML); the buttons switch the x axis.
 */
const PAGE_SCRIPT = `(function(){
var infos=JSON.parse(document.getElementById('timeline-infos').textContent);
var details=document.getElementById('details');
function show(target){var el=target&&target.closest?target.closest('[data-info]'):null;if(!el)return;
details.textContent=JSON.stringify(infos[Number(el.getAttribute('data-info'))],null,2);}
document.addEventListener('click',function(e){show(e.target)});
document.addEventListener('mouseover',function(e){show(e.target)});
Array.prototype.forEach.call(document.querySelectorAll('button[data-axis]'),function(b){
b.addEventListener('click',function(){var axis=b.getAttribute('data-axis');
Array.prototype.forEach.call(document.querySelectorAll('.axis'),function(s){s.hidden=s.getAttribute('data-axis')!==axis});});});
})();`

/**
 * A recorded session as one self-contained HTML page: no network, no external scripts or fonts,
 * an inline SVG per x axis and a small inline script. Lanes: the inbox (a bar per message from
 * its `enqueue` to its `dequeue` or `discard`, an arrow to where it landed in the transcript),
 * turns (each turn's acceptance window shaded from its claim to its `turn/end`), steps, tool
 * calls (call to result), the transcript (a mark per durable event) and status.
 *
 * @example writeFileSync('run.html', renderTimeline(recording.record()))
 */
export const renderTimeline = (record: TimelineRecord, options: RenderOptions = {}): string => {
  const layout = layoutTimeline(record)
  const wall = hasWallTime(record)
  const first: TimeAxis = options.axis === 'wall' && wall ? 'wall' : 'order'
  const axes: TimeAxis[] = wall ? ['order', 'wall'] : ['order']
  const title = options.title ?? `steerable timeline${record.agentId ? ` ${record.agentId}` : ''}`
  const svgs = axes
    .map(
      (axis) =>
        `<div class="axis" data-axis="${axis}"${axis === first ? '' : ' hidden'}>${renderTimelineSvg(record, layout, axis)}</div>`,
    )
    .join('\n')
  const buttons = axes.map(
    (a) => `<button type="button" data-axis="${a}">${a === 'order' ? 'event order' : 'wall time'}</button>`,
  )
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>body{font:13px system-ui,sans-serif;margin:12px}.scroll{overflow-x:auto}${TIMELINE_CSS}</style></head>
<body><h1>${escapeHtml(title)}</h1>
<p>${record.entries.length} events (${record.source === 'live' ? 'recorded live' : 'from a session log'}). x axis: ${buttons.join(' ')}. Hover or click a shape for its details.</p>
<div class="scroll">${svgs}</div>
<pre id="details" class="details">Hover or click a bar or a mark.</pre>
<script type="application/json" id="timeline-infos">${scriptJson(layout.infos)}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`
}
