/**
 * How a turn ended (`turn/end`). Written by hand, not derived from the vocabulary, because the
 * error classes of `errors.ts` name it and the vocabulary's schemas import those classes' module
 * through `messages/`; `test/types/vocabulary.test.ts` pins it against the schema.
 */
export type TurnEndReason =
  | { readonly kind: 'completed' }
  | { readonly kind: 'max-tokens' }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'disposed' }
  | { readonly kind: 'error'; readonly step: number; readonly message: string }
  /** A budget with `onExceed: 'stop'` was passed (R80). */
  | { readonly kind: 'budget' }
  /** The turn took the `maxSteps` its followup allowed (R81). */
  | { readonly kind: 'max-steps' }
