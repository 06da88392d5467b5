import type { SessionEvent, SessionUsage } from '../contracts/events.js'
import type { Usage } from '../contracts/messages.js'

const NONE: SessionUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  requests: 0,
  estimatedRequests: 0,
})

/**
 * The usage an event records (R73): a request's message, the end of a step that wrote none, or a
 * compaction whose summary the model wrote (R74).
 */
export const usageOf = (event: SessionEvent): Usage | undefined =>
  event.type === 'assistant/message' || event.type === 'step/end' || event.type === 'compaction'
    ? event.data.usage
    : undefined

/**
 * `agent.usage` (R73), folded from the log as it grows, so it survives reopening. Every step is
 * exactly one model request, so `requests` counts `step/start`s: a request whose usage was never
 * written (a crash mid-step, a log from before usage was recorded) still counts, as estimated.
 * A compaction with usage is one more request: the default summariser's.
 */
export class UsageLedger {
  private total: SessionUsage = NONE
  /** Requests whose usage the provider reported. */
  private reported = 0

  get usage(): SessionUsage {
    return this.total
  }

  /** Takes one appended event; true when the total changed. */
  see(event: SessionEvent): boolean {
    if (event.type === 'step/start') {
      this.set({ ...this.total, requests: this.total.requests + 1 })
      return true
    }
    const usage = usageOf(event)
    if (usage === undefined) return false
    if (!usage.estimated) this.reported++
    const t = this.total
    this.set({
      inputTokens: t.inputTokens + usage.inputTokens,
      outputTokens: t.outputTokens + usage.outputTokens,
      cachedInputTokens: t.cachedInputTokens + (usage.cachedInputTokens ?? 0),
      // A summary's request has no step: the compaction event stands for it.
      requests: t.requests + (event.type === 'compaction' ? 1 : 0),
      estimatedRequests: t.estimatedRequests,
    })
    return true
  }

  private set(next: Omit<SessionUsage, 'estimatedRequests'> & { estimatedRequests: number }): void {
    this.total = Object.freeze({ ...next, estimatedRequests: Math.max(0, next.requests - this.reported) })
  }
}
