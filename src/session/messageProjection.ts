import type { SessionEvent } from '../contracts/events.js'
import type { Message } from '../contracts/messages.js'
import { messageChars, projectEvent } from './projectMessages.js'

/** `summary`: a compaction's summary, whose seq is the compaction's, after the tail it heads. */
type Entry = { readonly seq: number; readonly message: Message; readonly summary?: true }

/** What a compaction keeping the last turns would replace (R74): the messages before the tail. */
export type CompactionPlan = { readonly keptFromSeq: number; readonly messages: readonly Message[] }
/** The messages from `fromSeq` on: appended to until a compaction or a rollback replaces them. */
type Version = { readonly fromSeq: number; readonly entries: Entry[] }

/** What one event did to the projection. */
export type Projected = 'appended' | 'replaced' | undefined

/**
 * `session.messages()` as a fold over the log (R38, R74, R77), kept as events are appended, so a
 * request never re-walks the history.
 *
 * A `compaction` replaces the messages before `keptFromSeq` with its summary. A `rollback` makes
 * the messages what they were when turn `toTurn` ended. Each replacement starts a new version and
 * the old one is kept, so a rollback past a compaction finds the messages as they were then: the
 * version in force when that turn ended, cut at its `turn/end`. Turn numbers never repeat, so a
 * turn's end names one moment of the log.
 */
export class MessageProjection {
  private current: Version = { fromSeq: 0, entries: [] }
  private readonly earlier: Version[] = []
  /** The `turn/end` seq of each turn in the timeline now, in order (a rollback drops some). */
  private turns: { readonly turn: number; readonly endSeq: number }[] = []
  private chars = 0

  /** The messages, in order (the live list: copy it before handing it out). */
  get entries(): readonly Entry[] {
    return this.current.entries
  }

  /** Their size in characters, for a request's usage estimate (R73). */
  get size(): number {
    return this.chars
  }

  /** The turns that are in `session.messages()` now, oldest first: what `rollback(n)` counts. */
  get timelineTurns(): readonly number[] {
    return this.turns.map((t) => t.turn)
  }

  /**
   * The messages a compaction would summarise (R74): all of them before the last `keep` turns
   * (the tail starts right after the end of the turn before those), an earlier summary included.
   * `lastSeq + 1` as `keptFromSeq` keeps nothing. `undefined` when nothing is before the tail.
   */
  plan(keep: number, lastSeq: number): CompactionPlan | undefined {
    const keptFromSeq =
      keep === 0 ? lastSeq + 1 : (this.turns[this.turns.length - keep - 1]?.endSeq ?? -1) + 1
    if (keptFromSeq === 0) return undefined // fewer turns than are kept
    const entries = this.current.entries
    let count = 0
    while (count < entries.length) {
      const entry = entries[count] as Entry
      if (!entry.summary && entry.seq >= keptFromSeq) break
      count++
    }
    if (count === 0) return undefined
    return { keptFromSeq, messages: Object.freeze(entries.slice(0, count).map((e) => e.message)) }
  }

  see(event: SessionEvent): Projected {
    switch (event.type) {
      case 'turn/end':
        this.turns.push({ turn: event.data.turn, endSeq: event.seq })
        return undefined
      case 'compaction':
        return this.replace(event.seq, [
          {
            seq: event.seq,
            message: Object.freeze({ role: 'user', content: event.data.summary }),
            summary: true,
          },
          ...this.current.entries.filter((e) => !e.summary && e.seq >= event.data.keptFromSeq),
        ])
      case 'rollback':
        return this.rollback(event.seq, event.data.toTurn)
      default: {
        const message = projectEvent(event)
        if (!message) return undefined
        this.current.entries.push({ seq: event.seq, message: Object.freeze(message) })
        this.chars += messageChars(message)
        return 'appended'
      }
    }
  }

  private rollback(seq: number, toTurn: number): Projected {
    const kept = toTurn === 0 ? -1 : this.turns.findIndex((t) => t.turn === toTurn)
    // A rollback the agent refused is never written; one read from a log that names a turn not in
    // the timeline (edited by hand) changes nothing rather than guessing.
    if (toTurn !== 0 && kept < 0) return undefined
    const endSeq = kept < 0 ? 0 : (this.turns[kept]?.endSeq ?? 0)
    this.turns = this.turns.slice(0, kept + 1)
    const then = this.versionAt(endSeq)
    return this.replace(
      seq,
      then.entries.filter((e) => e.seq <= endSeq),
    )
  }

  /** The version in force at `seq`: the last one that began at or before it. */
  private versionAt(seq: number): Version {
    if (this.current.fromSeq <= seq) return this.current
    for (let i = this.earlier.length - 1; i >= 0; i--) {
      const version = this.earlier[i] as Version
      if (version.fromSeq <= seq) return version
    }
    return { fromSeq: 0, entries: [] }
  }

  private replace(seq: number, entries: Entry[]): Projected {
    this.earlier.push(this.current)
    this.current = { fromSeq: seq, entries }
    this.chars = entries.reduce((n, e) => n + messageChars(e.message), 0)
    return 'replaced'
  }
}

/**
 * `session.messages()` over any list of durable events (R38): compactions and rollbacks included
 * (R74, R77), by the same fold the agent keeps.
 */
export const projectMessages = (events: readonly SessionEvent[]): Message[] => {
  const projection = new MessageProjection()
  for (const event of events) projection.see(event)
  return projection.entries.map((e) => e.message)
}
