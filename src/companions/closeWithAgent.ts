import type { Subscription } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import { reportUnhandled } from '../runtime/reportUnhandled.js'

/**
 * Ties what a companion owns to an agent's life: `close` runs once, when the agent's pipeline
 * ends (`dispose()`, a release, or a defect), or earlier when the returned function is called
 * (the companion let go first). A companion is a capability that owns other agents or tool
 * servers beside an agent (child agents, a tool server's connection): what it opens must not
 * outlive the agent that uses it. What `close` throws or rejects with is reported
 * (`reportUnhandled`: RxJS's `config.onUnhandledError`, else `console.error`) and changes nothing
 * for the agent.
 *
 * ```text
 * agent events$:  --a--b--|        dispose() completes the agent's streams
 * close:          --------C        once, after the last event
 * ```
 */
export const closeWithAgent = (agent: Agent, close: () => unknown): (() => void) => {
  let closed = false
  let subscription: Subscription | undefined
  const once = (): void => {
    if (closed) return
    closed = true
    subscription?.unsubscribe()
    try {
      const result = close()
      if (isThenable(result)) result.then(undefined, report)
    } catch (error) {
      report(error)
    }
  }
  // An agent that has ended completes at once, inside `subscribe`.
  subscription = agent.events$.subscribe({ error: once, complete: once })
  if (closed) subscription.unsubscribe()
  return once
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function'

// A thrown close is the companion's defect, not the agent's.
const report = reportUnhandled
