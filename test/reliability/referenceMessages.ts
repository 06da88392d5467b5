/**
 * `session.messages()` as the contract states it, written here independently of the library's
 * fold (src/session/messageProjection.ts) so that the two can be compared:
 *
 * - R38: `user/message` and `steering/message` are `{role: 'user', content}` verbatim, a non-empty
 *   `assistant/message` is `{role: 'assistant', content}`, a `tool/result` is
 *   `{role: 'tool', content: [result]}`; nothing else is a message.
 * - R74: a `compaction` makes the messages its summary as a user message, then the messages whose
 *   event has `seq >= keptFromSeq`. An earlier summary is never part of that tail: it stands for
 *   messages before the new summary, which now covers them.
 * - R77: a `rollback {toTurn}` makes the messages what they were when turn `toTurn` ended (none
 *   for 0), and the turns a later rollback counts are the turns of the timeline then: those up to
 *   `toTurn`, not the ones it undid.
 *
 * Snapshots are taken at each `turn/end` (turn numbers never repeat, R77), so a rollback is a
 * lookup rather than a replay.
 */
import type { Message, SessionEvent } from '../../src/index.js'

/** One message with the seq of the event it came from (a summary: its compaction's seq). */
export type ReferenceEntry = { readonly seq: number; readonly message: Message; readonly summary: boolean }

export type ReferenceHistory = {
  readonly entries: readonly ReferenceEntry[]
  /** The turns the messages hold, oldest first: what `rollback(n)` counts. */
  readonly timeline: readonly number[]
}

const messageOf = (e: SessionEvent): Message | undefined => {
  if (e.type === 'user/message' || e.type === 'steering/message')
    return { role: 'user', content: e.data.content }
  if (e.type === 'assistant/message' && e.data.content.length > 0)
    return { role: 'assistant', content: e.data.content }
  if (e.type === 'tool/result') return { role: 'tool', content: [e.data.result] }
  return undefined
}

export const referenceHistory = (events: readonly SessionEvent[]): ReferenceHistory => {
  let entries: ReferenceEntry[] = []
  let timeline: number[] = []
  const atTurnEnd = new Map<number, ReferenceHistory>()
  for (const e of events) {
    const message = messageOf(e)
    if (message) entries.push({ seq: e.seq, message, summary: false })
    else if (e.type === 'turn/end') {
      timeline = [...timeline, e.data.turn]
      atTurnEnd.set(e.data.turn, { entries: [...entries], timeline })
    } else if (e.type === 'compaction') {
      const { summary, keptFromSeq } = e.data
      const tail = entries.filter((x) => !x.summary && x.seq >= keptFromSeq)
      entries = [{ seq: e.seq, message: { role: 'user', content: summary }, summary: true }, ...tail]
    } else if (e.type === 'rollback') {
      const then = e.data.toTurn === 0 ? { entries: [], timeline: [] } : atTurnEnd.get(e.data.toTurn)
      if (then) {
        entries = [...then.entries]
        timeline = [...then.timeline]
      }
    }
  }
  return { entries, timeline }
}

export const referenceMessages = (events: readonly SessionEvent[]): Message[] =>
  referenceHistory(events).entries.map((e) => e.message)
