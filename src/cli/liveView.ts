import type { SessionEvent } from '../contracts/events.js'
import type { RemoteAgentEvent } from '../postgres.js'
import { approvalLine } from './attachApprovals.js'
import { toolStartLine } from './attachToolCalls.js'
import { formatDurable, formatLive, type Style } from './format.js'

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
 * `/cancel-tool` takes (R72); with `stream` (a terminal), its text is
 * written as it streams, and the step's `assistant/message` then only ends that line. `events`
 * prints every live event, as the app's `--events` does.
 */
export const liveView = (
  out: NodeJS.WritableStream,
  style: Style,
  options: { readonly stream: boolean; readonly events: boolean },
): LiveView => {
  /** A streamed line is open (its newline not written yet). */
  let open = false
  const streamed = new Set<string>()
  const committed = new Set<string>()
  const end = () => {
    if (open) out.write('\n')
    open = false
  }
  const print = (line: string) => {
    end()
    out.write(`${line}\n`)
  }
  return {
    print,
    durable: (event) => {
      if (event.type === 'assistant/message') {
        const key = `${event.data.turn}.${event.data.step}`
        committed.add(key)
        if (streamed.has(key)) return end()
      }
      const line = approvalLine(event, style) ?? formatDurable(event, style)
      if (line !== undefined) print(line)
    },
    live: (event) => {
      if (event.type === 'agent/stream/delta') {
        const key = `${event.turn}.${event.step}`
        if (!options.stream || event.kind !== 'text' || committed.has(key)) return
        if (!open) out.write(`${style.cyan('assistant ›')} `)
        streamed.add(key)
        open = true
        out.write(event.text)
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
