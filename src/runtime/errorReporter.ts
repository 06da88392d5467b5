import type { AgentErrorReport } from '../contracts/agentOptions.js'
import { reportUnhandled } from './reportUnhandled.js'

/** The agent's `onError` option (R118): a function, `false`, or left out for the default. */
export type OnError = ((event: AgentErrorReport) => void) | false | undefined

/**
 * R118: what the agent calls with each `agent/error` and each `turn/end` whose reason is `error`:
 * the app's `onError`, else one line per failed turn on `console.error`; nothing for `false`. A
 * throw of the handler goes to `reportUnhandled` (RxJS's `config.onUnhandledError`) and changes
 * nothing: the agent goes on as if it had returned.
 */
export const errorReporter = (onError: OnError): ((event: AgentErrorReport) => void) | undefined => {
  if (onError === false) return undefined
  const handler = onError ?? printFailedTurn
  return (event) => {
    try {
      handler(event)
    } catch (error) {
      reportUnhandled(error)
    }
  }
}

/**
 * The default `onError`: a failed turn is one line on `console.error` (its `agent/error` says
 * nothing more, so it prints nothing), so that `agent.followup(x)` against a model that cannot
 * answer is never silent.
 */
export const printFailedTurn = (event: AgentErrorReport): void => {
  if (event.type !== 'turn/end' || event.data.reason.kind !== 'error') return
  console.error(
    `steerable: turn ${event.data.turn} failed: ${event.data.reason.message} ` +
      '(pass onError to handle it, or onError: false)',
  )
}
