import { fifoShift } from './fifo.js'
import type { Admission } from './inputs.js'
import { settleContexts, writeEntries } from './outbox.js'
import { withClaim } from './records.js'
import type { Tx } from './reduction.js'
import { type Claim, claimedItem, itemMessage, itemWakes } from './state.js'
import { beginStep } from './step.js'

/** The deferred wake fired (R6): claim the FIFO head unless work started meanwhile. */
export const wake = (tx: Tx): void => {
  if (tx.state.wakeScheduled) tx.set({ wakeScheduled: false })
  const s = tx.state
  if (s.activity === null && s.disposal === 'none' && s.waking > 0) beginClaim(tx)
}

/**
 * R10, first step: open the window, publish `running` when idle. Dequeue and the hook follow as
 * continuations, so calls made by subscribers of each event are processed before the next step
 * (a cancel from a `running` subscriber stops the claim before the hook starts, R14).
 */
export const beginClaim = (tx: Tx): void => {
  const s = tx.state
  const claim: Claim = {
    kind: 'claim',
    id: s.nextActivity,
    turn: s.lastTurn + 1,
    inherited: s.outbox.length,
    phase: 'opening',
  }
  tx.set({ activity: claim, nextActivity: s.nextActivity + 1, window: true })
  if (s.status === 'idle') {
    tx.set({ status: 'running' })
    tx.live({ type: 'agent/status', agentId: tx.state.agentId, status: 'running' })
  }
  tx.effect({ kind: 'post', input: { type: 'claim/dequeue', activity: claim.id } })
}

/** The current claim, if `activity` names it and no cancel hit it. */
const liveClaim = (tx: Tx, activity: number): Claim | undefined => {
  const a = tx.state.activity
  return a?.kind === 'claim' && a.id === activity && !a.abort ? a : undefined
}

export const claimDequeue = (tx: Tx, activity: number): void => {
  const claim = liveClaim(tx, activity)
  if (claim?.phase !== 'opening') return
  const head = fifoShift(tx.state.queue)
  if (!head) return reject(tx, claim)
  // The claim keeps the item made whole: a compact `{id, text}` item's message is made once.
  const item = claimedItem(head.item)
  tx.set({
    queue: head.rest,
    waking: tx.state.waking - (itemWakes(item) ? 1 : 0),
    activity: withClaim(claim, { item, phase: 'dequeued' }),
  })
  tx.live({ type: 'agent/inbox/dequeue', agentId: tx.state.agentId, message: itemMessage(item) })
  tx.effect({ kind: 'post', input: { type: 'claim/submit', activity } })
}

export const claimSubmit = (tx: Tx, activity: number): void => {
  const claim = liveClaim(tx, activity)
  if (!claim?.item || claim.phase !== 'dequeued') return
  tx.setActivity(withClaim(claim, { phase: 'deciding' }))
  const { content, source } = itemMessage(claim.item)
  tx.effect({ kind: 'prompt-submit', activity, content, source })
}

/** R12: the allowed admission's writes, in order, then step 1. */
export const admissionAllowed = (tx: Tx, activity: number, admission: Admission): void => {
  const claim = liveClaim(tx, activity)
  if (!claim?.item || claim.phase !== 'deciding') return
  const { turn, inherited } = claim
  const message = itemMessage(claim.item)
  const outbox = tx.state.outbox
  tx.set({ lastTurn: turn, outbox: [] })
  tx.durable({ type: 'turn/start', data: { turn, trigger: { kind: 'message', source: message.source } } })
  writeEntries(tx, outbox.slice(0, inherited), turn)
  const content = admission.content ?? message.content
  tx.durable({ type: 'user/message', data: { content, source: message.source, id: message.id } })
  for (const context of admission.additionalContexts) tx.durable({ type: 'user/message', data: context })
  writeEntries(tx, outbox.slice(inherited), turn)
  beginStep(tx, { id: claim.id, turn }, 1)
}

export const admissionBlocked = (tx: Tx, activity: number): void => {
  const claim = liveClaim(tx, activity)
  if (claim?.phase === 'deciding') reject(tx, claim)
}

export const admissionFailed = (tx: Tx, activity: number, error: unknown): void => {
  const claim = liveClaim(tx, activity)
  if (claim?.phase !== 'deciding') return
  tx.live({ type: 'agent/error', agentId: tx.state.agentId, turn: claim.turn, step: 0, error })
  reject(tx, claim)
}

/**
 * R13: a rejected admission writes nothing of the prompt. The window closes, context-only
 * outboxes are appended at once, and the driver's next move is scheduled (R13b).
 */
export const reject = (tx: Tx, claim: Claim): void => {
  tx.set({ window: false, activity: { kind: 'between', id: claim.id, checkpointed: true } })
  tx.effect({ kind: 'stop', activity: claim.id })
  if (settleContexts(tx)) tx.effect({ kind: 'persist' })
  tx.effect({ kind: 'schedule', input: { type: 'advance', activity: claim.id } })
}
