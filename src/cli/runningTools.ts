import type { AgentEvent } from '../contracts/events.js'
import { oneLine } from './inboxList.js'

type Running = { readonly callId: string; readonly name: string; readonly since: number }

/** Seconds with one decimal under a minute, then minutes and seconds: `0.4s`, `12.0s`, `2m05s`. */
const elapsed = (ms: number): string => {
  const seconds = Math.max(0, ms) / 1000
  if (seconds < 60) return `${seconds.toFixed(1)}s`
  const whole = Math.floor(seconds)
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`
}

/**
 * The tool calls running now, from the live `agent/tool/start` and `agent/tool/end` (R72),
 * numbered from 1 in the order they started, so `/cancel-tool 2` can name one without its id.
 * Every call ends with its `agent/tool/end`, a cancelled or aborted one too, so the list empties
 * itself. The clock is the app's: a call's start is when the app saw it start.
 */
export class RunningTools {
  private calls: readonly Running[] = []

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes a live event; true when the list changed. */
  see(event: AgentEvent): boolean {
    if (event.type === 'agent/tool/start') {
      this.calls = [...this.calls, { callId: event.callId, name: event.name, since: this.now() }]
      return true
    }
    if (event.type === 'agent/tool/end') {
      const left = this.calls.filter((call) => call.callId !== event.callId)
      const changed = left.length !== this.calls.length
      this.calls = left
      return changed
    }
    return false
  }

  get size(): number {
    return this.calls.length
  }

  /**
   * The call `ref` names: a number from the list (`/cancel-tool 2`), or else a call id as it is.
   * A number past the end of the list is taken as an id, so a provider's numeric ids still work.
   */
  callId(ref: string): string {
    const n = /^\d+$/.test(ref) ? Number(ref) : 0
    return this.calls[n - 1]?.callId ?? ref
  }

  /** One line per running call: `  tool 1 · search (call_7) · 3.4s`, cut to `columns`. */
  lines(columns: number): string[] {
    const now = this.now()
    return this.calls.map(
      (call, i) =>
        `  ${oneLine(`tool ${i + 1} · ${call.name} (${call.callId}) · ${elapsed(now - call.since)}`, columns - 3)}`,
    )
  }
}
