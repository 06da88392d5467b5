import { firstStep } from './budget.js'
import { beginClaim } from './claim.js'
import { beginCompaction, dropDueCompaction } from './compaction.js'
import { beginClosing } from './dispose.js'
import { goIdle } from './idle.js'
import type { InputOf } from './inputs.js'
import { settleContexts, writeEntries } from './outbox.js'
import { withBetween } from './records.js'
import type { Reduction } from './reduction.js'
import { activeWork } from './state.js'

/** R36, R13b: the checkpoint is durable; the next move runs after the current call stack. */
export const checkpointDone = (r: Reduction, { activity }: InputOf<'checkpoint/done'>): void => {
  const a = r.state.activity
  if (a?.kind !== 'between' || a.id !== activity || a.checkpointed) return
  r.setActivity(withBetween(a, { checkpointed: true }))
  r.effect({ kind: 'schedule', input: { type: 'advance', activity } })
}

/** R36: a failed checkpoint is reported and the agent goes on. */
export const checkpointFailed = (r: Reduction, { activity, error }: InputOf<'checkpoint/failed'>): void => {
  const a = r.state.activity
  if (a?.kind !== 'between' || a.id !== activity || a.checkpointed) return
  r.live({ type: 'agent/error', agentId: r.state.agentId, turn: r.state.lastTurn, step: 0, error })
  checkpointDone(r, { type: 'checkpoint/done', activity })
}

/**
 * The driver's next move (R8, R9, R24): a pending retry turn, else claim the FIFO head while a
 * waking item is queued, else settle staged context and publish `idle`. While disposing, finish.
 */
export const advance = (r: Reduction, { activity }: InputOf<'advance'>): void => {
  const a = r.state.activity
  if (a?.kind !== 'between' || a.id !== activity) return
  r.setActivity(null)
  const s = r.state
  if (s.disposal !== 'none') {
    // dispose() came between a failed turn and its retry: the retry never opens, so the failed
    // turn is the last of its chain and owes its settled (R24).
    if (s.retryPending) {
      r.set({ retryPending: false })
      r.live({
        type: 'agent/settled',
        agentId: r.state.agentId,
        turn: s.lastTurn,
        reason: { kind: 'error', error: s.retryError },
      })
    }
    dropDueCompaction(r)
    return beginClosing(r)
  }
  if (s.retryPending) return openRetryTurn(r)
  if (s.compactionDue) return beginCompaction(r, s.compactionDue)
  if (s.waking > 0) return beginClaim(r)
  // No turn follows to inherit it (R26): context staged without steering is a durable fact and
  // is appended before idle, so a later idle inject can never overtake it (V1).
  if (settleContexts(r)) r.effect({ kind: 'persist' })
  goIdle(r)
}

/** R24: a retry turn takes the whole staged outbox as its inherited prefix. */
export const openRetryTurn = (r: Reduction): void => {
  const s = r.state
  const id = s.nextActivity
  const turn = s.lastTurn + 1
  const outbox = s.outbox
  r.set({
    nextActivity: id + 1,
    lastTurn: turn,
    retryPending: false,
    window: true,
    outbox: [],
  })
  if (s.status === 'idle') {
    r.set({ status: 'running' })
    r.live({ type: 'agent/status', agentId: r.state.agentId, status: 'running' })
  }
  r.durable({ type: 'turn/start', data: { turn, trigger: { kind: 'retry' } } })
  writeEntries(r, outbox, turn)
  const maxSteps = r.state.maxSteps // R116: a retry turn has the agent's cap
  firstStep(r, maxSteps === undefined ? { id, turn } : { id, turn, maxSteps })
}

/** `retry()`: at once while idle; coalesced inside `requestError`; otherwise ignored. */
export const retry = (r: Reduction): void => {
  const s = r.state
  if (s.disposal !== 'none') return
  if (s.activity === null) return openRetryTurn(r)
  const work = activeWork(s)
  if (work?.kind === 'turn' && work.phase === 'request-error' && !work.abort && !s.retryPending) {
    r.set({ retryPending: true, retryError: work.requestError })
  }
}
