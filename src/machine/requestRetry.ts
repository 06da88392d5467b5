import { EMPTY_DRAFT, type Turn } from './activity.js'
import { budgetSpent } from './budgetCheck.js'
import type { InputOf, RetryHint } from './inputs.js'
import { withTurn } from './records.js'
import type { Reduction } from './reduction.js'
import { liveTurn } from './stepStart.js'

/** The first retry's delay when the error names none (R117); each later one doubles it. */
export const RETRY_BASE_MS = 1000
/** The longest a retry waits (R117), whatever the backoff or the error's `retryAfterMs` says. */
export const RETRY_MAX_MS = 30_000
/** How far the jitter moves a backoff delay either way (R117): ±20%. */
const JITTER = 0.2

/**
 * R117: how long retry `attempt` (1, 2, …) waits: the error's `retryAfterMs` when it has one,
 * else 1 s, 2 s, 4 s … moved by up to ±20%; never more than 30 s.
 */
export const retryDelay = (attempt: number, hint: RetryHint): number => {
  if (hint.afterMs !== undefined) return Math.min(hint.afterMs, RETRY_MAX_MS)
  const backoff = RETRY_BASE_MS * 2 ** (attempt - 1) * (1 - JITTER + 2 * JITTER * hint.jitter)
  return Math.min(Math.round(backoff), RETRY_MAX_MS)
}

/**
 * R117: a request that failed with a retryable error before its first streamed event (no text,
 * reasoning or tool call), with retries left and the budget not passed, is made again after its
 * delay: the step stays open, and `agent/request/retry` says when. Returns whether it retries;
 * when not, the request fails as R24 says. The failed attempt was counted (R80) by the caller.
 */
export const retryRequest = (r: Reduction, turn: Turn, failed: InputOf<'model/failed'>): boolean => {
  const hint = failed.retry
  const attempt = (turn.retries ?? 0) + 1
  if (hint === undefined || attempt > (r.state.maxRetries ?? 0)) return false
  if (turn.draft.content.length > 0 || budgetSpent(r.state)) return false
  const delayMs = retryDelay(attempt, hint)
  const { agentId } = r.state
  const at = { turn: turn.turn, step: turn.step }
  r.live({ type: 'agent/request/retry', agentId, ...at, attempt, delayMs, error: failed.error })
  r.setActivity(withTurn(turn, { phase: 'retry-wait', retries: attempt, draft: EMPTY_DRAFT }))
  const input = { type: 'request/retry', activity: turn.id, step: turn.step } as const
  r.effect({ kind: 'timer', activity: turn.id, ms: delayMs, input })
  return true
}

/** R117: the delay is over: the step's request is made again, on the tool list the step saw (R100). */
export const requestRetry = (r: Reduction, { activity, step }: InputOf<'request/retry'>): void => {
  const turn = liveTurn(r, activity, 'retry-wait', step)
  if (!turn) return
  r.setActivity(withTurn(turn, { phase: 'model' }))
  const tools = r.state.tools?.step.version ?? 0
  r.effect(
    tools === 0
      ? { kind: 'model', activity, turn: turn.turn, step }
      : { kind: 'model', activity, turn: turn.turn, step, tools },
  )
}
