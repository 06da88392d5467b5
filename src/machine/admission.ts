import type { Claim } from './activity.js'
import { firstStep } from './budget.js'
import { fifoFrom, fifoShift, fifoToArray } from './fifo.js'
import type { InputOf } from './inputs.js'
import { settleContexts, writeEntries } from './outbox.js'
import { type ClaimedItem, claimedItem, itemMaxSteps, itemMessage, itemWakes } from './queuedItem.js'
import { withClaim } from './records.js'
import type { Reduction } from './reduction.js'
import { discard, expireGuarded, nextId } from './waiting.js'

/** The current claim, if `activity` names it and no cancel hit it. */
const liveClaim = (r: Reduction, activity: number): Claim | undefined => {
  const a = r.state.activity
  return a?.kind === 'claim' && a.id === activity && !a.abort ? a : undefined
}

export const claimDequeue = (r: Reduction, { activity }: InputOf<'claim/dequeue'>): void => {
  const claim = liveClaim(r, activity)
  if (claim?.phase !== 'opening') return
  const head = fifoShift(r.state.queue)
  if (!head) return reject(r, claim, undefined)
  // The claim keeps the item made whole: a compact `{id, text}` item's message is made once.
  const item = claimedItem(head.item)
  r.set({
    queue: head.rest,
    waking: r.state.waking - (itemWakes(item) ? 1 : 0),
    activity: withClaim(claim, { item, phase: 'dequeued' }),
  })
  r.live({ type: 'agent/inbox/dequeue', agentId: r.state.agentId, message: itemMessage(item) })
  r.effect({ kind: 'post', input: { type: 'claim/submit', activity } })
}

export const claimSubmit = (r: Reduction, { activity }: InputOf<'claim/submit'>): void => {
  const claim = liveClaim(r, activity)
  if (!claim?.item || claim.phase !== 'dequeued') return
  r.setActivity(withClaim(claim, { phase: 'deciding' }))
  const { content, source } = itemMessage(claim.item)
  r.effect({ kind: 'prompt-submit', activity, content, source })
}

/** R12: the allowed admission's writes, in order, then step 1. */
export const admissionAllowed = (
  r: Reduction,
  { activity, admission }: InputOf<'admission/allowed'>,
): void => {
  const claim = liveClaim(r, activity)
  if (!claim?.item || claim.phase !== 'deciding') return
  const { turn, inherited } = claim
  const message = itemMessage(claim.item)
  const outbox = r.state.outbox
  r.set({ lastTurn: turn, outbox: [] })
  const trigger = { kind: 'message', source: message.source, id: message.id } as const
  r.durable({ type: 'turn/start', data: { turn, trigger } })
  writeEntries(r, outbox.slice(0, inherited), turn)
  const content = admission.content ?? message.content
  r.durable({ type: 'user/message', data: { content, source: message.source, id: message.id } })
  for (const context of admission.additionalContexts) r.durable({ type: 'user/message', data: context })
  writeEntries(r, outbox.slice(inherited), turn)
  const maxSteps = itemMaxSteps(claim.item) ?? r.state.maxSteps
  firstStep(r, maxSteps === undefined ? { id: claim.id, turn } : { id: claim.id, turn, maxSteps })
}

export const admissionBlocked = (r: Reduction, { activity, reason }: InputOf<'admission/blocked'>): void => {
  const claim = liveClaim(r, activity)
  if (claim?.phase === 'deciding') reject(r, claim, reason)
}

export const admissionFailed = (r: Reduction, { activity, error }: InputOf<'admission/failed'>): void => {
  const claim = liveClaim(r, activity)
  if (claim?.phase !== 'deciding') return
  r.live({ type: 'agent/error', agentId: r.state.agentId, turn: claim.turn, step: 0, error })
  reject(r, claim, error)
}

/**
 * R13: a rejected admission writes nothing of the prompt. The window closes, context-only
 * outboxes are appended at once, and the driver's next move is scheduled (R13b). The claimed
 * prompt settles `blocked` with `reason` (the hook's reason, its error, or the cancel's cause),
 * unless an interrupting send cancelled it: then it goes back to the queue, behind that send
 * (R47). Steering guarded for the turn it would have opened expires (R49).
 */
export const reject = (r: Reduction, claim: Claim, reason: unknown): void => {
  r.set({ window: false, activity: { kind: 'between', id: claim.id, checkpointed: true } })
  r.effect({ kind: 'stop', activity: claim.id })
  if (claim.item) {
    const message = itemMessage(claim.item)
    if (claim.abort?.requeue) requeue(r, claim.item)
    else r.settle(message.id, { kind: 'blocked', reason })
  }
  expireGuarded(r, claim.turn)
  if (settleContexts(r)) r.effect({ kind: 'persist' })
  r.effect({ kind: 'schedule', input: { type: 'advance', activity: claim.id } })
}

/**
 * An interrupted prompt goes back to the queue right behind the interrupting item (R47), and the
 * journal says where, since the claim left no record of taking it out. While `dispose()` unwinds
 * it is discarded instead (R29): the queue it would join has already been discarded.
 */
const requeue = (r: Reduction, item: ClaimedItem): void => {
  const message = itemMessage(item)
  const agentId = r.state.agentId
  if (r.state.disposal !== 'none' && !r.state.releasing) {
    r.live({ type: 'agent/inbox/enqueue', agentId, message, placement: 'queued' })
    return discard(r, [message], 'dispose')
  }
  const items = fifoToArray(r.state.queue)
  // A release puts it back at the head, where the journal (which never saw it leave) has it.
  const index = r.state.releasing ? 0 : Math.min(1, items.length)
  items.splice(index, 0, item)
  r.setQueue(fifoFrom(items), r.state.waking + (itemWakes(item) ? 1 : 0))
  r.live({ type: 'agent/inbox/enqueue', agentId, message, placement: 'queued', index })
  r.journal({ op: 'move', id: message.id, before: nextId(items, index) })
}
