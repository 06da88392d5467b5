import { Observable, type OperatorFunction } from 'rxjs'
import type { AgentErrorReport } from '../contracts/agentOptions.js'
import type { AgentEvent, SessionEvent } from '../contracts/events.js'
import type { Effect } from '../machine/effects.js'
import type { Output } from '../machine/outputs.js'
import type { Reduced } from '../machine/reduce.js'
import type { WindowMove } from '../machine/reduction.js'
import type { Transcript } from '../session/transcript.js'
import type { Outcomes } from './outcomes.js'

/** What reaches subscribers: live events, and durable events once appended to the transcript. */
export type Published =
  | { readonly kind: 'live'; readonly event: AgentEvent }
  | { readonly kind: 'event'; readonly event: SessionEvent }

export type PublishDeps = {
  /** Called first for each reduction, before its outputs go out (the façade adopts its state). */
  readonly reduced: (reduction: Reduced) => void
  readonly transcript: Transcript
  /** Runs an effect, in output order (the effect runner's inlet). */
  readonly effect: (effect: Effect) => void
  /** Settles the fates of messages (R42): told of `settle` outputs and of published events. */
  readonly outcomes: Outcomes
  /**
   * The acceptance window opened or closed, at its place among the outputs (`window$`, R82): so a
   * window subscriber learns it closed before anyone sees the `turn/end` it closed for.
   */
  readonly window: (open: boolean) => void
  /** Called after all outputs of a reduction were delivered (the `whenIdle` check). */
  readonly delivered: (reduction: Reduced) => void
  /**
   * Called with each `agent/error` and each `turn/end` whose reason is `error`, once its
   * subscribers have it (the agent's `onError`, R118); absent with `onError: false`.
   */
  readonly report?: ((event: AgentErrorReport) => void) | undefined
  /** Called once when the reductions end (completion or error), after passing it on. */
  readonly ended: () => void
}

/**
 * Hands each reduction's state to the façade (`reduced`), then its outputs on, in order, synchronously: a
 * live event is emitted; a durable draft is appended to the transcript and its `SessionEvent` emitted; an
 * effect goes to the runner. Then `delivered(reduction)`.
 *
 * ```text
 * reductions:  --R1----------R2--|      R1.out = [live a, durable d, effect x], R2.out = [live b]
 * emitted:     --(aD)--------b---|      D = d appended; x went to the runner between D and R2
 * ```
 *
 * Why effects do not travel on the emitted stream: that stream is multicast to subscribers with
 * a `Subject`, whose every `next` costs an ES5 iteration (garbage) in the CommonJS RxJS that
 * Node loads; effects are a third of the outputs and have exactly one reader
 * (docs/performance.md#inlets-instead-of-subjects).
 */
export const publishOutputs =
  (deps: PublishDeps): OperatorFunction<Reduced, Published> =>
  (reductions) =>
    new Observable<Published>((subscriber) =>
      reductions.subscribe({
        next: (r) => {
          deps.reduced(r)
          // An index, not for-of: docs/performance.md#plain-loops-in-the-publisher.
          const out = r.out
          const moves = r.windowMoves
          let move = 0
          for (let i = 0; i < out.length; i++) {
            if (moves !== undefined) move = moveWindow(moves, move, i, deps)
            const o = out[i] as Output
            if (o.kind === 'effect') deps.effect(o.effect)
            else if (o.kind === 'live') {
              deps.outcomes.live(o.event)
              subscriber.next(o)
              if (o.event.type === 'agent/error') deps.report?.(o.event)
            } else if (o.kind === 'durable') {
              const event = deps.transcript.append(o.draft)
              deps.outcomes.durable(event)
              subscriber.next({ kind: 'event', event })
              if (event.type === 'turn/end' && event.data.reason.kind === 'error') deps.report?.(event)
            } else if (o.kind === 'journal') deps.transcript.journal(o.record)
            else deps.outcomes.settle(o.id, o.outcome)
          }
          if (moves !== undefined) moveWindow(moves, move, out.length, deps)
          deps.delivered(r)
        },
        error: (error: unknown) => {
          subscriber.error(error)
          deps.ended()
        },
        complete: () => {
          subscriber.complete()
          deps.ended()
        },
      }),
    )

/** Tells the window moves placed at or before output `at`, from the `next` one on; returns the next. */
const moveWindow = (moves: readonly WindowMove[], next: number, at: number, deps: PublishDeps): number => {
  let k = next
  while (k < moves.length && (moves[k] as WindowMove).at <= at) deps.window((moves[k++] as WindowMove).open)
  return k
}
