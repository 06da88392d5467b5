/**
 * What the cluster test's clients do, as a table: each kind of operation with its weight in the
 * random mix and its effect, which is all the checks need to know of it. A new kind of operation
 * is one row here; the checks already hold for every effect.
 */
import type { AgentMessageId } from '../../../../src/index.js'
import type { RemoteSession } from '../../../../src/postgres.js'

/**
 * - `send`: returns a new id, which must be delivered or settled exactly once;
 * - `replace`: the target may be delivered with this operation's text instead of its own;
 * - `reorder`: the target may leave its place (move, promote), so its order is not checked;
 * - `withdraw`: the target may be discarded (remove);
 * - `cancel`: the session's waiting items may be discarded.
 */
export type Effect = 'send' | 'replace' | 'reorder' | 'withdraw' | 'cancel'

/** How a delivered message entered the transcript (the `as` of its outcome, R42). */
export type DeliveredAs = 'prompt' | 'steering' | 'context'

export type OperationContext = {
  readonly session: RemoteSession
  /** A text no other operation of the run uses. */
  readonly text: string
  /** For `replace`, `reorder` and `withdraw`: an id this client sent into this session before. */
  readonly target: AgentMessageId
  /** A seeded random number in [0, 1), drawn for this operation (an index, a turn, an option). */
  readonly roll: number
}

export type Operation = {
  readonly kind: string
  /** Its share of the mix, relative to the other rows. */
  readonly weight: number
  readonly effect: Effect
  /** For a send: how it may be delivered (R4: by the owner's window when it applies the send). */
  readonly delivers?: readonly DeliveredAs[]
  /** A send resolves with its id; what anything else resolves with is ignored. */
  run(context: OperationContext): Promise<unknown>
}

export const OPERATIONS: readonly Operation[] = [
  {
    kind: 'followup',
    weight: 6,
    effect: 'send',
    delivers: ['prompt'],
    run: ({ session, text }) => session.followup(text),
  },
  // Steering of the running turn, or a queued turn when the owner's window is closed (R4).
  {
    kind: 'steer',
    weight: 4,
    effect: 'send',
    delivers: ['steering', 'prompt'],
    run: ({ session, text }) => session.steer(text),
  },
  {
    kind: 'inject',
    weight: 3,
    effect: 'send',
    delivers: ['context'],
    run: ({ session, text }) => session.inject(text),
  },
  // Refused when the owner is busy as it applies it (R47, R55).
  {
    kind: 'followup-if-idle',
    weight: 1,
    effect: 'send',
    delivers: ['prompt'],
    run: ({ session, text }) => session.followup(text, { ifBusy: 'reject' }),
  },
  // Refused unless the owner's window is open for that turn as it applies it (R49, R55).
  {
    kind: 'steer-turn',
    weight: 1,
    effect: 'send',
    delivers: ['steering'],
    run: ({ session, text, roll }) => session.steer(text, { turn: 1 + Math.floor(roll * 6) }),
  },
  // The inbox controls (R43–R46) and cancel (R58), applied by the owner in journal order.
  { kind: 'remove', weight: 1, effect: 'withdraw', run: ({ session, target }) => session.remove(target) },
  {
    kind: 'replace',
    weight: 1,
    effect: 'replace',
    run: ({ session, target, text }) => session.replace(target, text),
  },
  {
    kind: 'move',
    weight: 1,
    effect: 'reorder',
    run: ({ session, target, roll }) => session.move(target, Math.floor(roll * 3)),
  },
  { kind: 'promote', weight: 1, effect: 'reorder', run: ({ session, target }) => session.promote(target) },
  {
    kind: 'cancel',
    weight: 0.5,
    effect: 'cancel',
    run: ({ session, roll }) => session.cancel(undefined, { keepInbox: roll < 0.5 }),
  },
]

/** The followup the harness sends into every session at the end, once the clients are done. */
export const CLOSING: Operation = {
  kind: 'closing',
  weight: 0,
  effect: 'send',
  delivers: ['prompt'],
  run: ({ session, text }) => session.followup(text),
}

/** One operation a client made, as it prints it (one JSON line per operation). */
export type OperationRecord = {
  /** The client's number (-1 for the harness's closing followups). */
  readonly client: number
  /** Its place in the order the client made its calls (to one session, the journal order, R55). */
  readonly n: number
  readonly session: string
  readonly kind: string
  readonly effect: Effect
  readonly text: string
  /** The id a send returned. */
  readonly id?: AgentMessageId
  readonly target?: AgentMessageId
  /** Why the call failed (a failed call is a violation). */
  readonly error?: string
}

/** A row of `operations` picked by weight with `random`. */
export const pickOperation = (operations: readonly Operation[], random: () => number): Operation => {
  const total = operations.reduce((sum, o) => sum + o.weight, 0)
  let at = random() * total
  for (const operation of operations) {
    at -= operation.weight
    if (at < 0) return operation
  }
  return operations[operations.length - 1]!
}
