/**
 * The cluster test's checks on ids (R57, R52, R55), over what the tables hold: every id a client
 * got back is delivered exactly once (one event carries it, in its own session, with one of its
 * texts, as its kind may be delivered) or settled exactly once (one `settle` in the journal),
 * never both; no event carries an id no client got back; and each client's sends into a session
 * keep their order where the contract says they must.
 */
import type { AgentMessageId, SessionEvent } from '../../../../src/index.js'
import { CLOSING, type DeliveredAs, OPERATIONS, type OperationRecord } from './operations.js'
import type { SessionRows } from './readCluster.js'

/** What became of one id, as the tables show it. */
export type Fate =
  | { readonly kind: 'delivered'; readonly as: DeliveredAs; readonly seq: number }
  | { readonly kind: 'settled'; readonly outcome: { readonly kind: string } }

export type Deliveries = {
  /** The fate of every id whose fate is exactly one event or one settlement. */
  readonly fates: ReadonlyMap<AgentMessageId, Fate>
  readonly violations: readonly string[]
}

const KINDS = new Map([...OPERATIONS, CLOSING].map((o) => [o.kind, o]))
/** The id a message event carries (R42 reads outcomes from these two events only). */
const carriedId = (event: SessionEvent): AgentMessageId | undefined =>
  event.type === 'user/message' || event.type === 'steering/message' ? event.data.id : undefined

/**
 * How the message event at `index` was delivered, read independently of the library: steering,
 * the prompt its open turn's `turn/start` names (R12, R42), or context.
 */
const deliveredAs = (events: readonly SessionEvent[], index: number): DeliveredAs => {
  const event = events[index]
  if (event?.type === 'steering/message') return 'steering'
  for (let i = index - 1; i >= 0; i--) {
    const e = events[i]!
    if (e.type === 'turn/end') return 'context'
    if (e.type === 'turn/start')
      return e.data.trigger.kind === 'message' && e.data.trigger.id === carriedId(event!)
        ? 'prompt'
        : 'context'
  }
  return 'context'
}

const textOf = (event: SessionEvent): string | undefined => {
  if (event.type !== 'user/message' && event.type !== 'steering/message') return undefined
  const [first] = event.data.content
  return first?.type === 'text' ? first.text : undefined
}

export const checkDeliveries = (
  sessions: ReadonlyMap<string, SessionRows>,
  records: readonly OperationRecord[],
): Deliveries => {
  const violations: string[] = []
  const carried = new Map<AgentMessageId, { session: string; index: number }[]>()
  const settles = new Map<AgentMessageId, { session: string; outcome: { kind: string } }[]>()
  for (const rows of sessions.values()) {
    rows.events.forEach((row, index) => {
      const id = carriedId(row.event)
      if (id !== undefined) carried.set(id, [...(carried.get(id) ?? []), { session: rows.id, index }])
    })
    for (const row of rows.journal)
      if (row.op === 'settle' && row.record.id && row.record.outcome)
        settles.set(row.record.id, [
          ...(settles.get(row.record.id) ?? []),
          { session: rows.id, outcome: row.record.outcome },
        ])
  }
  // What each id may be delivered as, and with which texts (a replace adds one).
  const sends = records.filter((r): r is OperationRecord & { id: AgentMessageId } => r.id !== undefined)
  const texts = new Map(sends.map((r) => [r.id, [r.text]]))
  const reordered = new Set<AgentMessageId>()
  for (const r of records) {
    if (r.target && r.effect === 'replace') texts.get(r.target)?.push(r.text)
    if (r.target && r.effect === 'reorder') reordered.add(r.target)
  }

  const fates = new Map<AgentMessageId, Fate>()
  for (const send of sends) {
    const where = `${send.id} (${send.kind} #${send.n} of client ${send.client} into ${send.session})`
    const carriers = carried.get(send.id) ?? []
    const settled = settles.get(send.id) ?? []
    if (carriers.length + settled.length !== 1) {
      violations.push(`${where}: in the transcript ${carriers.length} times, settled ${settled.length} times`)
      continue
    }
    const [event] = carriers
    const [settle] = settled
    if (settle) {
      if (settle.session !== send.session) violations.push(`${where}: settled in ${settle.session}`)
      fates.set(send.id, { kind: 'settled', outcome: settle.outcome })
      continue
    }
    if (!event) continue
    const events = sessions.get(event.session)?.events.map((r) => r.event) ?? []
    if (event.session !== send.session) violations.push(`${where}: delivered into ${event.session}`)
    const as = deliveredAs(events, event.index)
    fates.set(send.id, { kind: 'delivered', as, seq: events[event.index]!.seq })
    const text = textOf(events[event.index]!)
    if (!texts.get(send.id)?.includes(text ?? ''))
      violations.push(`${where}: delivered with the text ${text}`)
    const allowed = KINDS.get(send.kind)?.delivers
    if (!reordered.has(send.id) && allowed && !allowed.includes(as))
      violations.push(`${where}: delivered as ${as}, expected ${allowed.join(' or ')}`)
  }
  const returned = new Set(sends.map((r) => r.id))
  for (const [id, where] of carried)
    if (!returned.has(id))
      violations.push(`${id}: in ${where[0]?.session}'s transcript, but no client got it back`)
  violations.push(...checkOrder(sends, fates, reordered))
  return { fates, violations }
}

/**
 * One client's sends into one session keep their order (R55) where the owner keeps it: queued
 * items are claimed in FIFO order (R4, R51 restores them in order), so their prompts run in send
 * order; staged steering drains in acceptance order (R12, R20), so steering lands in send order.
 * Not checked: context (an inject appended at once can pass one staged behind leftover steering,
 * R13, R51), order across kinds (a steer can land in the running turn ahead of queued followups),
 * and items that a move or promote targeted (R45, R46).
 */
const checkOrder = (
  sends: readonly (OperationRecord & { id: AgentMessageId })[],
  fates: ReadonlyMap<AgentMessageId, Fate>,
  reordered: ReadonlySet<AgentMessageId>,
): string[] => {
  const violations: string[] = []
  const streams = new Map<string, { n: number; seq: number }[]>()
  for (const send of sends) {
    const fate = fates.get(send.id)
    if (fate?.kind !== 'delivered' || reordered.has(send.id) || fate.as === 'context') continue
    const key = `${send.client} ${send.session} ${fate.as}`
    streams.set(key, [...(streams.get(key) ?? []), { n: send.n, seq: fate.seq }])
  }
  for (const [key, stream] of streams) {
    const bySend = [...stream].sort((a, b) => a.n - b.n)
    for (let i = 1; i < bySend.length; i++)
      if (bySend[i]!.seq < bySend[i - 1]!.seq)
        violations.push(
          `client/session/as ${key}: send #${bySend[i]!.n} delivered at seq ${bySend[i]!.seq}, before send #${bySend[i - 1]!.n} at seq ${bySend[i - 1]!.seq}`,
        )
  }
  return violations
}
