import type { SessionEvent } from '../contracts/events.js'
import { MessageProjection } from '../session/messageProjection.js'
import { contentText } from './shapes.js'

/** The durable events that change the history rather than add to it (R74, R77, R78). */
export const HISTORY_EVENTS: ReadonlySet<string> = new Set(['compaction', 'rollback', 'fork'])

/**
 * What a `compaction`, a `rollback` or a `fork` did to `session.messages()`, for a view to show.
 * A message is named by the seq of the event that wrote it (a summary: its compaction's).
 */
export type HistoryFact =
  | {
      readonly kind: 'compaction'
      /** The seqs of the messages the summary replaced; how many after them it kept. */
      readonly replaced: readonly number[]
      readonly kept: number
      readonly summary: string
    }
  | {
      readonly kind: 'rollback'
      readonly toTurn: number
      /** The turns it took out of the messages, oldest first (none when they were gone already). */
      readonly undone: readonly number[]
      /** The seqs of the messages it took out. */
      readonly removed: readonly number[]
      /** How many it brought back: those a compaction after `toTurn` had replaced. */
      readonly restored: number
    }
  | {
      readonly kind: 'fork'
      readonly from: string
      readonly atTurn: number
      /** How many events were copied from the session it was forked from (those before it). */
      readonly copied: number
    }

/**
 * Follows a session's durable events, in `seq` order, with the same fold as `session.messages()`,
 * so what a view says was replaced or undone is what the agent itself replaced or undid.
 */
export class HistoryFacts {
  private readonly projection = new MessageProjection()
  private events = 0

  /** What `event` did, when it is one of `HISTORY_EVENTS`; every event must be passed, in order. */
  see(event: SessionEvent): HistoryFact | undefined {
    // A compaction starts a new list and leaves the old one as it was; a rollback cuts a list back
    // in place, so what it held before is copied first.
    const before = event.type === 'rollback' ? this.projection.entries.slice() : this.projection.entries
    const turns = this.projection.timelineTurns
    const did = this.projection.see(event)
    const copied = this.events++
    if (event.type === 'compaction') {
      const replaced = before.filter((e) => e.seq < event.data.keptFromSeq).map((e) => e.seq)
      const kept = before.length - replaced.length
      return { kind: 'compaction', replaced, kept, summary: contentText(event.data.summary) }
    }
    if (event.type === 'rollback') {
      const { toTurn } = event.data
      // The fold decides which messages went (a rollback past a compaction brings back what the
      // summary had replaced): those it held before and not after.
      const after = this.projection.entries
      const kept = new Set(after.map((e) => e.seq))
      const removed = before.filter((e) => !kept.has(e.seq)).map((e) => e.seq)
      const held = new Set(before.map((e) => e.seq))
      const restored = after.filter((e) => !held.has(e.seq)).length
      // One naming a turn the messages do not hold (a log edited by hand) changed nothing.
      const undone = did === 'replaced' ? turns.filter((turn) => turn > toTurn) : []
      return { kind: 'rollback', toTurn, undone, removed, restored }
    }
    if (event.type === 'fork') return { kind: 'fork', ...event.data, copied }
    return undefined
  }
}
