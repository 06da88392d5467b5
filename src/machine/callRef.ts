import { callKey } from '../messages/callKey.js'
import type { Turn } from './activity.js'
import type { CallAt } from './inputs.js'
import type { DeliveryState } from './state.js'
import { settled } from './toolLive.js'

export type { CallAt }

/** What a caller's reference (a key, or a model id) names among the calls `approve` or `cancel` may reach. */
export type ResolvedCall =
  | { readonly kind: 'call'; readonly at: CallAt; readonly callId: string }
  | { readonly kind: 'ambiguous'; readonly keys: readonly string[] }
  | { readonly kind: 'none' }

/** Which calls a reference may name: those waiting for a decision, or those without a result. */
export type CallScope = 'pending' | 'unsettled'

const NONE: ResolvedCall = Object.freeze({ kind: 'none' })

/** The running turn's batch when nothing aborted it. */
const batchOf = (s: DeliveryState): Turn | undefined => {
  const a = s.activity
  return a?.kind === 'turn' && !a.abort && a.phase === 'tools' ? a : undefined
}

/** Whether call `index` of the batch is in `scope`. */
export const inScope = (turn: Turn, index: number, scope: CallScope): boolean =>
  index < turn.draft.toolCalls.length &&
  (scope === 'pending' ? turn.approvals?.[index] === 'pending' : !settled(turn, index))

/**
 * `ref` is a call's key (`"turn.step.index"`) or its model id. A key names its call; an id names
 * the one call in scope that has it. When it names more than one call (two calls share the id, or
 * the id of one is the key of another), the caller must pick by key.
 */
export const resolveCall = (s: DeliveryState, ref: string, scope: CallScope): ResolvedCall => {
  const turn = batchOf(s)
  if (!turn) return NONE
  const matches: number[] = []
  turn.draft.toolCalls.forEach((call, index) => {
    if (!inScope(turn, index, scope)) return
    if (call.id === ref || callKey(turn.turn, turn.step, index) === ref) matches.push(index)
  })
  const [index] = matches
  if (index === undefined) return NONE
  if (matches.length > 1)
    return { kind: 'ambiguous', keys: matches.map((i) => callKey(turn.turn, turn.step, i)) }
  const callId = turn.draft.toolCalls[index]?.id ?? ref
  return { kind: 'call', at: { activity: turn.id, step: turn.step, index }, callId }
}

/** Whether `at` is in `scope` in this state. */
export const isInScope = (s: DeliveryState, at: CallAt, scope: CallScope): boolean => {
  const turn = batchOf(s)
  return (
    turn !== undefined && turn.id === at.activity && turn.step === at.step && inScope(turn, at.index, scope)
  )
}

/** The running batch's turn when `at` names one of its calls in `scope` (what a reducer handler acts on). */
export const turnAt = (s: DeliveryState, at: CallAt, scope: CallScope): Turn | undefined =>
  isInScope(s, at, scope) ? batchOf(s) : undefined

export const sameCall = (a: CallAt, b: CallAt): boolean =>
  a.activity === b.activity && a.step === b.step && a.index === b.index
