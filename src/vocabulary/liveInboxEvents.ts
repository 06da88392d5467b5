/** The live events of the inbox: what entered, left, changed or moved in the queue (R41–R47). */
import * as z from 'zod/mini'
import { messageSourceSchema } from '../messages/schemas.js'
import { messageContent, messageId } from './leaves.js'
import { live } from './live.js'

/** An `AgentMessage`: a message under the id it was accepted with. */
export const agentMessage = z.strictObject({
  content: messageContent,
  source: messageSourceSchema,
  id: messageId,
})

export const liveInboxEvents = [
  live('agent/inbox/enqueue', {
    message: agentMessage,
    placement: z.enum(['queued', 'steering']),
    /**
     * Where in the queue the item went when not at its tail: 0 for an interrupting send (R47), 1
     * for the prompt it interrupted, which goes back behind it.
     */
    index: z.optional(z.int().check(z.minimum(0))),
  }),
  live('agent/inbox/dequeue', { message: agentMessage }),
  live('agent/inbox/discard', {
    messages: z.array(agentMessage),
    reason: z.enum(['cancel', 'dispose', 'removed', 'expired']),
  }),
  /** `replace(id, input)` changed a waiting queued or steering item: same id, new content (R44). */
  live('agent/inbox/replace', { message: agentMessage }),
  /** `move()` or `promote()` reordered the queue: its ids in their new order (R45, R46). */
  live('agent/inbox/reorder', { ids: z.array(messageId) }),
] as const
