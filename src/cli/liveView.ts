import type { SessionEvent } from '../contracts/events.js'
import type { RemoteAgentEvent } from '../postgres.js'
import { approvalLine } from './attachApprovals.js'
import { toolStartLine } from './attachToolCalls.js'
import { cut, formatDurable, formatLive, type Style } from './format.js'

/** What `steerable attach` shows of a session: its transcript, and its owner's live events. */
export type LiveView = {
  print(line: string): void
  durable(event: SessionEvent): void
  live(event: RemoteAgentEvent): void
}

/**
 * Lines for a session followed from another process. The transcript is printed as it commits
 * (approval requests and decisions included, R67); the owner's status changes are printed as
 * they happen (`· running`, `· paused`, `· idle`), and so is each tool call it starts, with the id
 * `/cancel-tool` takes (R72); with `stream` (a terminal), its text is written as it streams.
 * `events` prints every live event, as the app's `--events` does.
 *
 * Live events and the transcript come by different ways (a notification, a read of the log), so
 * either can be first. What is shown keeps the transcript's order and its words: a step's text
 * streams only once its `step/start` is shown (what it reads, a prompt or a steer, is above it);
 * when the step's `assistant/message` commits, the streamed line gets whatever did not stream
 * yet, or, if it was broken by another line or differs, the whole answer is printed again as the
 * owner prints it. A step that ends without an answer (a cancel cut it) has its line marked cut.
 */
export const liveView = (
  out: NodeJS.WritableStream,
  style: Style,
  options: { readonly stream: boolean; readonly events: boolean },
): LiveView => {
  /** The step whose streamed line is open (its newline not written yet), and what it shows. */
  let open: { key: string; text: string } | undefined
  /** Text that streamed for a step before its `step/start` was shown. */
  const early = new Map<string, string>()
  const started = new Set<string>()
  const streamed = new Set<string>()
  const committed = new Set<string>()
  const end = () => {
    if (open) out.write('\n')
    open = undefined
  }
  const print = (line: string) => {
    end()
    out.write(`${line}\n`)
  }
  const stream = (key: string, text: string) => {
    if (open?.key !== key) {
      end()
      out.write(`${style.cyan('assistant ›')} `)
      open = { key, text: '' }
    }
    streamed.add(key)
    open.text += text
    out.write(text)
  }
  /** The step's answer committed: finish its streamed line, or print it whole. */
  const answered = (event: SessionEvent & { type: 'assistant/message' }, key: string) => {
    const text = event.data.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
    if (open?.key === key && text.startsWith(open.text)) {
      out.write(`${text.slice(open.text.length).trimEnd()}${event.data.interrupted ? cut(style) : ''}`)
      return end()
    }
    const line = formatDurable(event, style)
    if (line !== undefined) print(line)
  }
  return {
    print,
    durable: (event) => {
      const key = 'step' in event.data ? `${event.data.turn}.${event.data.step}` : undefined
      if (event.type === 'assistant/message' && key) {
        committed.add(key)
        early.delete(key)
        if (streamed.has(key)) return answered(event, key)
      }
      // A step that ends with no answer written was cut (a cancel): its streamed text stays, marked.
      const unanswered = open !== undefined && !committed.has(open.key)
      if (unanswered && (event.type === 'step/end' || event.type === 'turn/end')) {
        out.write(cut(style))
        end()
      }
      const line = approvalLine(event, style) ?? formatDurable(event, style)
      if (line !== undefined) print(line)
      if (event.type === 'step/start' && key) {
        started.add(key)
        const text = early.get(key)
        early.delete(key)
        if (text) stream(key, text)
      }
    },
    live: (event) => {
      if (event.type === 'agent/stream/delta') {
        const key = `${event.turn}.${event.step}`
        if (!options.stream || event.kind !== 'text' || committed.has(key)) return
        if (started.has(key)) stream(key, event.text)
        else early.set(key, (early.get(key) ?? '') + event.text)
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
