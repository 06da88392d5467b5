import type { AgentMessage, UserMessageData } from '../contracts/messages.js'

/** Next-step input staged for the next safe boundary. Steering carries its id; context may. */
export type OutboxEntry =
  /** `guard`: the only turn this steering may land in (R49); it expires when that turn ends. */
  | {
      readonly kind: 'steering'
      readonly message: AgentMessage
      readonly guard?: number
      /** This steer cut the step it is drained into (R68). */
      readonly cut?: true
    }
  | { readonly kind: 'context'; readonly data: UserMessageData & { readonly id?: AgentMessage['id'] } }

export const hasSteering = (outbox: readonly OutboxEntry[]): boolean =>
  outbox.some((e) => e.kind === 'steering')
