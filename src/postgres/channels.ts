import { createHash } from 'node:crypto'

/**
 * Every LISTEN/NOTIFY channel of sessions on PostgreSQL, in one place: who notifies on each and
 * who listens, so that a writer and its followers cannot drift apart. Notifications only hurry
 * followers up (they also poll), except on live channels, where the notifications are the data.
 */

/**
 * A checkpoint committed (the owner, `writeCheckpoint`); the payload names the session. Heard by
 * transcript followers and outcome reads.
 */
export const EVENTS_CHANNEL = 'steerable_events'

/**
 * A remote request (a send or an edit) was stored in a session's inbox journal (a client,
 * `writeRemoteRequest`); the payload names the session. Heard by the session's owner, which
 * applies it, and by workers, which look for sessions nobody drives.
 */
export const INBOX_CHANNEL = 'steerable_inbox'

/**
 * The channel a session's live events are published on: one per session, so a follower hears
 * only the session it follows. A channel is an identifier of at most 63 bytes, so it is named
 * after a hash of the session id (the payload carries the id itself, which followers check).
 */
export const liveChannel = (sessionId: string): string =>
  `steerable_live_${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}`
