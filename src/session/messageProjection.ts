import type { SessionEvent } from '../contracts/events.js'
import type { Message } from '../contracts/messages.js'
import { messageChars, projectEvent } from './projectMessages.js'

/** `summary`: a compaction's summary, whose seq is the compaction's, after the tail it heads. */
type Entry = { readonly seq: number; readonly message: Message; readonly summary?: true }

/** What a compaction keeping the last turns would replace (R74): the messages before the tail. */
export type CompactionPlan = { readonly keptFromSeq: number; readonly messages: readonly Message[] }
/** A list of messages: appended to until a compaction replaces it or a rollback cuts it back. */
type Version = { readonly entries: Entry[] }
/**
 * A turn of the timeline, and where its end left the messages: the first `count` entries of
 * `version` (which only grows while it is current), whose size was `chars`.
 */
type TurnEnd = {
  readonly turn: number
  readonly endSeq: number
  readonly version: Version
  readonly count: number
  readonly chars: number
}

/** What one event did to the projection. */
export type Projected = 'appended' | 'replaced' | undefined

/**
 * `session.messages()` as a fold over the log (R38, R74, R77), kept as events are appended, so a
 * request never re-walks the history.
 *
 * A `compaction` replaces the messages before `keptFromSeq` with its summary, in a new list. A
 * `rollback` makes the messages what they were when turn `toTurn` ended. Each turn of the timeline
 * remembers the list in force at its end and how long it was then, so a rollback past a
 * compaction finds the messages as they were then. A rollback cuts that list back in place
 * instead of copying it: the turns that still point to it all ended at or before the cut, and the
 * turns after it leave the timeline, so nothing can ask for what was cut. The projection so holds
 * one list per compaction still named by a turn, never one per rollback
 * (docs/performance.md#rollback-cuts-in-place).
 */
export class MessageProjection {
  private current: Version = { entries: [] }
  /** The turns in `session.messages()` now, in order (a rollback drops some). */
  private turns: TurnEnd[] = []
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
      case 'turn/end': {
        const version = this.current
        const count = version.entries.length
        this.turns.push({ turn: event.data.turn, endSeq: event.seq, version, count, chars: this.chars })
        return undefined
      }
      case 'compaction':
        return this.replace([
          {
            seq: event.seq,
            message: Object.freeze({ role: 'user', content: event.data.summary }),
            summary: true,
          },
          ...this.current.entries.filter((e) => !e.summary && e.seq >= event.data.keptFromSeq),
        ])
      case 'rollback':
        return this.rollback(event.data.toTurn)
      default: {
        const message = projectEvent(event)
        if (!message) return undefined
        this.current.entries.push({ seq: event.seq, message: Object.freeze(message) })
        this.chars += messageChars(message)
        return 'appended'
      }
    }
  }

  private rollback(toTurn: number): Projected {
    const kept = toTurn === 0 ? -1 : this.turns.findIndex((t) => t.turn === toTurn)
    // A rollback the agent refused is never written; one read from a log that names a turn not in
    // the timeline (edited by hand) changes nothing rather than guessing.
    if (toTurn !== 0 && kept < 0) return undefined
    const then = this.turns[kept]
    this.turns.length = kept + 1
    if (then === undefined) {
      this.current = { entries: [] }
      this.chars = 0
    } else {
      then.version.entries.length = then.count
      this.current = then.version
      this.chars = then.chars
    }
    return 'replaced'
  }

  private replace(entries: Entry[]): Projected {
    this.current = { entries }
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
