import type { SessionEvent } from '../contracts/events.js'
import type { RemoteAgentEvent } from '../postgres.js'
import { approvalLine } from './attachApprovals.js'
import { toolStartLine } from './attachToolCalls.js'
import { cut, formatDurable, formatLive, type Style } from './format.js'
import { LiveRegion } from './liveRegion.js'

/** What `steerable attach` shows of a session: its transcript, and its owner's live events. */
export type LiveView = {
  print(line: string): void
  /** A line the person typed was echoed by the terminal (below the streamed text, if shown). */
  typed(line: string): void
  durable(event: SessionEvent): void
  live(event: RemoteAgentEvent): void
}

/**
 * Lines for a session followed from another process. The transcript is printed as it commits
 * (approval requests and decisions included, R67); the owner's status changes are printed as
 * they happen (`· running`, `· paused`, `· idle`), and so is each tool call it starts, with the id
 * `/cancel-tool` takes (R72). `events` prints every live event, as the app's `--events` does.
 *
 * With `stream` (a terminal) the text the owner streams is shown as the owner's terminal shows
 * it: below what was printed, redrawn in place, so that lines committed meanwhile (the prompt it
 * answers: the owner commits at each step's end, after its text streamed) go above it, in the
 * transcript's order. When the step's `assistant/message` commits, the streamed text gives way
 * to the answer as committed, to its last word (deltas can arrive after it). A step that ends
 * without an answer (a cancel cut it) keeps what streamed, marked cut.
 */
export const liveView = (
  out: NodeJS.WritableStream,
  style: Style,
  options: { readonly stream: boolean; readonly events: boolean },
): LiveView => {
  const region = new LiveRegion(out as NodeJS.WriteStream)
  /** The step whose text streams now (not committed yet), and that text. */
  let streaming: { key: string; text: string } | undefined
  const committed = new Set<string>()
  const draw = () =>
    region.render(streaming ? [`${style.cyan('assistant ›')} ${streaming.text.trimStart()}`] : [])
  const print = (line: string) => region.print(line)
  /** The streamed text leaves the live line: as the committed answer, or marked cut. */
  const settle = (line: string | undefined) => {
    streaming = undefined
    draw()
    if (line !== undefined) print(line)
  }
  return {
    print,
    // The echo moved the cursor below the streamed line: it is drawn again, below the echo.
    typed: (line) => {
      if (!options.stream || !streaming) return
      region.echoed(line)
      draw()
    },
    durable: (event) => {
      const key = 'step' in event.data ? `${event.data.turn}.${event.data.step}` : undefined
      if (event.type === 'assistant/message' && key) committed.add(key)
      const line = approvalLine(event, style) ?? formatDurable(event, style)
      if (event.type === 'assistant/message' && streaming?.key === key) return settle(line)
      // A step that ends with no answer written was cut (a cancel): its streamed text stays, marked.
      const ended = event.type === 'step/end' || event.type === 'turn/end'
      if (ended && streaming && (event.type === 'turn/end' || streaming.key === key))
        settle(`${style.cyan('assistant ›')} ${streaming.text.trim()}${cut(style)}`)
      if (line !== undefined) print(line)
    },
    live: (event) => {
      if (event.type === 'agent/stream/delta') {
        const key = `${event.turn}.${event.step}`
        if (!options.stream || event.kind !== 'text' || committed.has(key)) return
        if (streaming?.key !== key) streaming = { key, text: '' }
        streaming.text += event.text
        draw()
      } else if (event.type === 'agent/status') print(style.dim(`· ${event.status}`))
      else if (event.type === 'agent/tool/start') print(toolStartLine(event, style))
      else if (event.type === 'remote/events-lost') {
        if (options.events) print(style.dim(`· some live events did not arrive (${event.reason})`))
      } else {
        const line = formatLive(event, style, options.events)
        if (line !== undefined) print(line)
      }
    },
  }
}
