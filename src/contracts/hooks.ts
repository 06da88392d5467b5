import type { Observable } from 'rxjs'
import type { ContentBlock, MessageSource, UserMessageData } from './messages.js'

/** What `promptSubmit` decides (docs/contract.md, section 3). `undefined` means allow. */
export type PromptDecision =
  | {
      readonly kind: 'allow'
      readonly content?: readonly ContentBlock[] | string
      readonly additionalContexts?: readonly (UserMessageData | string)[]
    }
  | { readonly kind: 'block'; readonly reason?: unknown }

/**
 * A hook may return a plain value, a Promise/thenable, an Observable (or interop Observable) or
 * an AsyncIterable. Arrays, strings and other iterables are plain values, never streams.
 */
export type HookResult<T> = T | PromiseLike<T> | Observable<T> | AsyncIterable<T> | InteropObservable<T>
type InteropObservable<T> = { [Symbol.observable]: () => { subscribe(observer: unknown): unknown } } & {
  readonly __value?: T
}

export type PromptSubmitArgs<A> = {
  readonly agent: A
  readonly content: readonly ContentBlock[]
  readonly source: MessageSource
  readonly signal: AbortSignal
}
export type StepArgs<A> = {
  readonly agent: A
  readonly turn: number
  readonly step: number
  readonly signal: AbortSignal
}
export type TurnStoppingArgs<A> = { readonly agent: A; readonly turn: number; readonly signal: AbortSignal }
export type RequestErrorArgs<A> = StepArgs<A> & { readonly error: unknown }

type OneOrMany<F> = F | readonly F[]

// biome-ignore lint/suspicious/noConfusingVoidType: a hook with a block body that returns nothing allows
type PromptSubmitResult = HookResult<PromptDecision | undefined> | void

export type AgentHooks<A> = {
  /** Returning nothing allows the prompt unchanged. */
  readonly promptSubmit?: OneOrMany<(args: PromptSubmitArgs<A>) => PromptSubmitResult>
  readonly step?: OneOrMany<(args: StepArgs<A>) => HookResult<unknown>>
  readonly turnStopping?: OneOrMany<(args: TurnStoppingArgs<A>) => HookResult<unknown>>
  readonly requestError?: OneOrMany<(args: RequestErrorArgs<A>) => HookResult<unknown>>
}
