import * as z from 'zod/mini'
import { agentEventSchemas } from '../../vocabulary/agentEvents.js'
import { parsedJson } from '../../vocabulary/frozen.js'
import { eventsLostSchema, type RemoteAgentEvent } from './liveEvents.js'

/**
 * A live event as a follower receives it (R56), checked strictly like a transcript row: the
 * owner's `AgentEvent`s, by the vocabulary's own schemas (errors arrive as plain JSON, `{name,
 * message}` for an `Error`, and absent when the owner's was `undefined` or a symbol), and the
 * owner's own `remote/events-lost` markers.
 */
export const liveEventSchema = z.discriminatedUnion('type', [...agentEventSchemas, eventsLostSchema])

/** The event `value` (parsed JSON) is, as checked by `liveEventSchema`; `undefined` when it is none. */
export const checkLiveEvent = (value: unknown): RemoteAgentEvent | undefined => {
  const checked = liveEventSchema.safeParse(value)
  return checked.success ? parsedJson(checked.data) : undefined
}
