import { filter, map, merge, Observable, Subject, type Subscription } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import { jsonSafe } from '../messages/jsonSafe.js'
import type { TimelineEntry, TimelineRecord } from './types.js'

export type RecordOptions = {
  /**
   * The clock of `t`: `Date.now` by default. Pass `() => scheduler.now()` to record virtual time
   * (a marble test), which `toMarbles` then lays out frame by frame.
   */
  readonly now?: () => number
  /** Also record `agent/stream/delta` (every streamed word): off by default. */
  readonly deltas?: boolean
}

/** A running recording of one agent; `stop()` ends it (it also ends when the agent is disposed). */
export type Recording = {
  /** The record so far: a new plain object on each call. */
  readonly record: () => TimelineRecord
  /** Each entry as it is recorded (not replayed: read `record()` first for what came before). */
  readonly entries$: Observable<TimelineEntry>
  readonly stop: () => void
}

/**
 * Both streams of `agent` as timeline entries, numbered in the one order they are emitted: the
 * transcript so far first (it replays on subscribe), then every live and durable event. Cold:
 * each subscription numbers from 1.
 */
export const timelineEntries = (agent: Agent, options: RecordOptions = {}): Observable<TimelineEntry> => {
  const now = options.now ?? Date.now
  const durable$ = agent.transcript$.pipe(map((event) => ({ stream: 'transcript' as const, event })))
  const live$ = agent.events$.pipe(
    filter((event) => options.deltas === true || event.type !== 'agent/stream/delta'),
    map((event) => ({ stream: 'events' as const, event })),
  )
  return new Observable<TimelineEntry>((subscriber) => {
    let seq = 0
    return merge(durable$, live$).subscribe({
      next: ({ stream, event }) => {
        seq++
        const safe = jsonSafe(event)
        subscriber.next({ seq, t: now(), stream, event: safe } as TimelineEntry)
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    })
  })
}

/**
 * Starts recording `agent`: both of its streams (lifecycle `events$` and the durable
 * `transcript$`) with a timestamp and a sequence number, into a plain JSON-serialisable record
 * for `renderTimeline` and `toMarbles`.
 *
 * @example
 * const rec = record(agent)
 * agent.followup('hi')
 * await agent.whenIdle()
 * writeFileSync('run.html', renderTimeline(rec.record()))
 */
export const record = (agent: Agent, options: RecordOptions = {}): Recording => {
  const entries: TimelineEntry[] = []
  const startedAt = (options.now ?? Date.now)()
  const added = new Subject<TimelineEntry>()
  const subscription: Subscription = timelineEntries(agent, options).subscribe({
    next: (entry) => {
      entries.push(entry)
      added.next(entry)
    },
    complete: () => added.complete(),
  })
  return {
    record: () => ({
      format: 'steerable-timeline',
      version: 1,
      agentId: agent.id,
      source: 'live',
      startedAt,
      entries: [...entries],
    }),
    entries$: added.asObservable(),
    stop: () => {
      subscription.unsubscribe()
      added.complete()
    },
  }
}
