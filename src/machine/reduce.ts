import { acceptContext, acceptInjected, acceptQueued } from './accept.js'
import {
  admissionAllowed,
  admissionBlocked,
  admissionFailed,
  claimDequeue,
  claimSubmit,
  wake,
} from './admission.js'
import { advance, checkpointDone, checkpointFailed, finalize, retry } from './betweenTurns.js'
import { cancel, cancelClear, dispose, finalized, storeFailed, unwind } from './cancel.js'
import type { Input } from './inputs.js'
import type { Output } from './outputs.js'
import { Tx } from './reduction.js'
import type { DeliveryState } from './state.js'
import {
  hookFailed,
  modelComplete,
  modelEvent,
  modelFailed,
  requestErrorDone,
  requestErrorStart,
  stepHookDone,
  turnStoppingDone,
} from './step.js'
import { toolResult, toolStarted, toolsFailed } from './toolBatch.js'

export type Reduction = { readonly state: DeliveryState; readonly out: readonly Output[] }

/**
 * The whole delivery contract as one pure function: `(state, input) → {state, out}`. `out` lists,
 * in order, the live events, the durable drafts and the effects to run. No I/O, no clock, no
 * ids: those arrive on the input. An input that changes nothing returns the same state object.
 */
export const reduce = (state: DeliveryState, input: Input): Reduction => {
  const tx = new Tx(state)
  handle(tx, input)
  return tx
}

const handle = (tx: Tx, input: Input): void => {
  switch (input.type) {
    case 'queue':
      return acceptQueued(tx, input.message, input.target, input.wakeup, input.text)
    case 'inject':
      return acceptInjected(tx, input.message)
    case 'cancel':
      return cancel(tx, input.cause, input.keepInbox)
    case 'retry':
      return retry(tx)
    case 'dispose':
      return dispose(tx)
    case 'wake':
      return wake(tx)
    case 'claim/dequeue':
      return claimDequeue(tx, input.activity)
    case 'claim/submit':
      return claimSubmit(tx, input.activity)
    case 'admission/allowed':
      return admissionAllowed(tx, input.activity, input.admission)
    case 'admission/blocked':
      return admissionBlocked(tx, input.activity)
    case 'admission/failed':
      return admissionFailed(tx, input.activity, input.error)
    case 'cancel/clear':
      return cancelClear(tx, input.cause, input.keepInbox)
    case 'unwind':
      return unwind(tx, input.activity)
    case 'advance':
      return advance(tx, input.activity)
    case 'step-hook/done':
      return stepHookDone(tx, input.activity, input.step)
    case 'hook/failed':
      return hookFailed(tx, input.activity, input.step, input.error)
    case 'model/event':
      return modelEvent(tx, input.activity, input.step, input.event)
    case 'model/complete':
      return modelComplete(tx, input.activity, input.step)
    case 'model/failed':
      return modelFailed(tx, input.activity, input.step, input.error)
    case 'tool/result':
      return toolResult(tx, input.activity, input.step, input.index, input.result, input.concluded)
    case 'tool/started':
      return toolStarted(tx, input.activity, input.step, input.index)
    case 'tools/failed':
      return toolsFailed(tx, input.activity, input.step, input.error)
    case 'tool/context':
      return acceptContext(tx, input.data)
    case 'turn-stopping/done':
      return turnStoppingDone(tx, input.activity)
    case 'request-error/start':
      return requestErrorStart(tx, input.activity)
    case 'request-error/done':
      return requestErrorDone(tx, input.activity)
    case 'checkpoint/done':
      return checkpointDone(tx, input.activity)
    case 'checkpoint/failed':
      return checkpointFailed(tx, input.activity, input.error)
    case 'dispose/finalize':
      return finalize(tx)
    case 'finalized':
      return finalized(tx)
    case 'store/failed':
      return storeFailed(tx, input.error)
  }
}
