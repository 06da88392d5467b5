import type { Subscription } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import type { RemoteApplied } from '../contracts/remote.js'
import { extensionsOf } from '../runtime/extensions.js'
import type { PostgresSessionStore } from './postgresSessionStore.js'
import type { PendingRemoteSend } from './remoteSends.js'

/**
 * The owner's side of remote sends (R55): hands each remote send of `store` (those that waited,
 * then each new one as it commits, in journal order) to `agent`, which applies it under the
 * sender's id, routed by its window at that moment, and journals what it did (an `add`, or a
 * `settle` for a refusal), so the next owner applies only what left no trace. An id the agent
 * knows is applied once only; a refusal is flushed at once. `applied` hears each result; a failed
 * read of the journal (or flush) goes to `failed`. Unsubscribe to stop.
 */
export const applyRemoteSends = (
  agent: Agent,
  store: PostgresSessionStore,
  handlers: {
    readonly applied?: (send: PendingRemoteSend, result: RemoteApplied) => void
    readonly failed?: (error: unknown) => void
  } = {},
): Subscription => {
  const { acceptRemote } = extensionsOf(agent)
  return store.remoteSends$.subscribe({
    next: (send) => {
      const { message, options } = send.record
      const result = acceptRemote({
        id: message.id,
        input: { content: message.content, source: message.source },
        options,
      })
      // A refusal leaves no trace in the transcript: its settlement is made durable now, so the
      // sender's outcome(id) can read it (an accepted send is written with the next checkpoint).
      if (result === 'refused') agent.session.flush().catch((error: unknown) => handlers.failed?.(error))
      handlers.applied?.(send, result)
    },
    error: (error: unknown) => handlers.failed?.(error),
  })
}
