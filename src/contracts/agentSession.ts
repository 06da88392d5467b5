import type { SessionEvent } from './events.js'
import type { Message } from './messages.js'

/** The durable transcript an agent keeps (its session), and what the model sees of it. */
export type AgentSession = {
  /**
   * Every durable event so far (`turn/start`, `user/message`, `assistant/message`, …), frozen;
   * the same array until the next event is appended.
   */
  readonly events: readonly SessionEvent[]
  /**
   * The conversation as the model sees it: user, assistant and tool messages, frozen.
   *
   * @example console.log(agent.session.messages().at(-1)?.content)
   */
  messages(): readonly Message[]
  /**
   * Resolves when every event appended so far is durable in the store (for a file store: written
   * and fsynced); rejects while the store cannot write.
   */
  flush(): Promise<void>
}
