import type { AgentEvent, DurableDraft } from '../contracts/events.js'
import type { InboxRecord, Outcome } from '../contracts/inbox.js'
import type { AgentMessageId } from '../contracts/messages.js'
import type { Effect } from './effects.js'

/** One item of a reduction's ordered output. */
export type Output =
  | { readonly kind: 'live'; readonly event: AgentEvent }
  | { readonly kind: 'durable'; readonly draft: DurableDraft }
  | { readonly kind: 'effect'; readonly effect: Effect }
  /**
   * A message's fate that no event shows (R42): a claimed prompt that was blocked, a staged
   * context withdrawn with `remove`. Fates that events show (a `discard`, the `user/message` or
   * `steering/message` carrying the id) are read from the events.
   */
  | { readonly kind: 'settle'; readonly id: AgentMessageId; readonly outcome: Outcome }
  /** A record for the store's inbox journal (R50); only while `journaling`. */
  | { readonly kind: 'journal'; readonly record: InboxRecord }
