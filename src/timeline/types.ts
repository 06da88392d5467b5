import type { AgentEvent, SessionEvent } from '../contracts/events.js'
import type { InboxRecord } from '../contracts/inbox.js'

/** Which stream an entry came from: live lifecycle, durable transcript, or a file store's inbox journal. */
export type TimelineStream = 'events' | 'transcript' | 'journal'

/**
 * One recorded event. `seq` numbers the entries of a record 1, 2, 3 … in the one order they were
 * seen (the x axis of the timeline); `t` is when (milliseconds of the recorder's clock), absent
 * when the source kept no time (a session log). Values an agent does not control (an `error`)
 * are stored as plain JSON: an `Error` becomes `{name, message}`.
 */
export type TimelineEntry =
  | { readonly seq: number; readonly t?: number; readonly stream: 'events'; readonly event: AgentEvent }
  | { readonly seq: number; readonly t?: number; readonly stream: 'transcript'; readonly event: SessionEvent }
  | { readonly seq: number; readonly t?: number; readonly stream: 'journal'; readonly event: InboxRecord }

/** A recorded session, plain JSON (`JSON.stringify` / `JSON.parse` round-trip it). */
export type TimelineRecord = {
  readonly format: 'steerable-timeline'
  readonly version: 1
  /** The session id, when known. */
  readonly agentId?: string
  /** `live`: recorded from an agent's streams; `session`: rebuilt from a session log alone. */
  readonly source: 'live' | 'session'
  /** When recording started (the clock of `t`): frame 0 of `toMarbles`. */
  readonly startedAt?: number
  readonly entries: readonly TimelineEntry[]
}
