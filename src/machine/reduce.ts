import { acceptInjected, acceptQueued, toolContext } from './accept.js'
import {
  admissionAllowed,
  admissionBlocked,
  admissionFailed,
  claimDequeue,
  claimSubmit,
} from './admission.js'
import { approvalsChecked, approvalTimeout, decide, turnResume } from './approvals.js'
import { advance, checkpointDone, checkpointFailed, retry } from './betweenTurns.js'
import { raiseBudget } from './budget.js'
import { cancel, cancelClear, unwind } from './cancel.js'
import { cancelCall } from './cancelCall.js'
import { wake } from './claim.js'
import { compact, compactionDone, compactionFailed } from './compaction.js'
import { dispose, disposeClose, disposeClosed } from './dispose.js'
import { move, promote, refuse, remove, replace } from './inbox.js'
import type { Input, InputOf } from './inputs.js'
import type { Output } from './outputs.js'
import { Reduction, type WindowMove } from './reduction.js'
import { requestRetry } from './requestRetry.js'
import { rollback } from './rollback.js'
import type { DeliveryState } from './state.js'
import {
  hookFailed,
  modelComplete,
  modelEvent,
  modelFailed,
  modelStarted,
  requestErrorDone,
  requestErrorStart,
  stepHookDone,
  turnStoppingDone,
} from './step.js'
import { storeFailed } from './storeFailed.js'
import { toolResult, toolStarted, toolsFailed } from './toolBatch.js'
import { toolsListed } from './tools.js'

export type Reduced = {
  readonly state: DeliveryState
  readonly out: readonly Output[]
  /** Where the acceptance window moved among `out`, when it did (see `Reduction.windowMoves`). */
  readonly windowMoves?: readonly WindowMove[] | undefined
}

type Handlers = { readonly [T in Input['type']]: (r: Reduction, input: InputOf<T>) => void }

/**
 * One small handler per input type, each taking the whole input (the `on(type, handler)` of a
 * store, as a table): every rule of the contract lives in the handler of the input that triggers
 * it, and the table is checked to cover every input type.
 */
const handlers: Handlers = {
  // Calls from the public surface.
  queue: acceptQueued,
  inject: acceptInjected,
  cancel,
  retry,
  dispose,
  // Inbox control (R43–R46).
  remove,
  replace,
  move,
  promote,
  refuse,
  // A human in the loop (R61–R66, R80).
  decide,
  'raise-budget': raiseBudget,
  // History (R74–R77).
  rollback,
  compact,
  'compaction/done': compactionDone,
  'compaction/failed': compactionFailed,
  // One call, one step (R68, R71).
  'cancel-call': cancelCall,
  'approvals/checked': approvalsChecked,
  'approval/timeout': approvalTimeout,
  'turn/resume': turnResume,
  // The deferred wake and the claim (R6, R10–R13).
  wake,
  'claim/dequeue': claimDequeue,
  'claim/submit': claimSubmit,
  'admission/allowed': admissionAllowed,
  'admission/blocked': admissionBlocked,
  'admission/failed': admissionFailed,
  // Cancellation (R25–R27).
  'cancel/clear': cancelClear,
  unwind,
  // Steps (R15–R24).
  'step-hook/done': stepHookDone,
  'hook/failed': hookFailed,
  'model/started': modelStarted,
  'model/event': modelEvent,
  'model/complete': modelComplete,
  'model/failed': modelFailed,
  'tool/started': toolStarted,
  'tool/result': toolResult,
  'tools/failed': toolsFailed,
  'tool/context': toolContext,
  // Tool sources (R100).
  'tools/listed': toolsListed,
  'turn-stopping/done': turnStoppingDone,
  'request-error/start': requestErrorStart,
  'request-error/done': requestErrorDone,
  'request/retry': requestRetry,
  // Between turns: checkpoints and the next move (R7, R8, R36).
  'checkpoint/done': checkpointDone,
  'checkpoint/failed': checkpointFailed,
  advance,
  // The end of dispose() (R29) and store failures (R40).
  'dispose/close': disposeClose,
  'dispose/closed': disposeClosed,
  'store/failed': storeFailed,
}

/**
 * The whole delivery contract as one pure function: `(state, input) → {state, out}`. `out` lists,
 * in order, the live events, the durable drafts and the effects to run. No I/O, no clock, no
 * ids: those arrive on the input. An input that changes nothing returns the same state object.
 */
export const reduce = (state: DeliveryState, input: Input): Reduced => {
  const r = new Reduction(state)
  ;(handlers[input.type] as (r: Reduction, input: Input) => void)(r, input)
  return r
}
