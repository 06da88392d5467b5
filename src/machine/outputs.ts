import type { AgentEvent, DurableDraft } from '../contracts/events.js'
import type { Effect } from './effects.js'

/** One item of a reduction's ordered output. */
export type Output =
  | { readonly kind: 'live'; readonly event: AgentEvent }
  | { readonly kind: 'durable'; readonly draft: DurableDraft }
  | { readonly kind: 'effect'; readonly effect: Effect }
