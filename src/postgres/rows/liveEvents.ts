import * as z from 'zod/mini'
import type { AgentEvent } from '../../contracts/events.js'

/**
 * What `events$` of a remote session emits (R56): the owner's live events, and a marker where
 * some were lost on the way. Live events travel as notifications, which PostgreSQL neither
 * stores nor lets grow past about 8000 bytes: see `EventsLostEvent`.
 */
export type RemoteAgentEvent = AgentEvent | EventsLostEvent

/** The owner's own marker where some live events did not reach a follower (`EventsLostEvent`). */
export const eventsLostSchema = z.strictObject({
  type: z.literal('remote/events-lost'),
  reason: z.enum(['too-large', 'unsent', 'missed', 'invalid']),
  /** How many events, when known. */
  count: z.optional(z.int().check(z.minimum(1))),
  /** For `too-large` and `invalid`: the type of the event left out. */
  eventType: z.optional(z.string()),
})

/**
 * Some of the owner's live events did not reach this follower. Nothing durable is lost: the
 * transcript (`transcript$`) holds everything that happened; only the live view has a gap.
 *
 * - `too-large`: one event did not fit in one notification (a stream delta never: it is split);
 *   `eventType` says which kind of event it was.
 * - `unsent`: the owner could not publish (the database failed or was too slow) and dropped
 *   `count` events rather than hold up its agent or its memory.
 * - `missed`: this follower missed notifications (its LISTEN connection was lost and opened again,
 *   or the owner's NOTIFY failed); how many events is not known.
 * - `invalid`: an event that arrived failed validation and was left out.
 */
export type EventsLostEvent = {
  readonly type: 'remote/events-lost'
  readonly reason: 'too-large' | 'unsent' | 'missed' | 'invalid'
  /** How many events, when known. */
  readonly count?: number
  /** For `too-large` and `invalid`: the type of the event left out. */
  readonly eventType?: string
}
