import { type MonoTypeOperatorFunction, Observable } from 'rxjs'

type Frame<T> = { readonly items: T[]; head: number }

/**
 * Delivers values one at a time, depth-first: a value that arrives while another is being
 * delivered (a reentrant call from a subscriber, an effect that answers synchronously) waits
 * until that delivery returned, and values that arrived during a delivery run right after it,
 * in arrival order, before the values that were already waiting. Like `observeOn(queueScheduler)`,
 * but depth-first, so a call's own follow-ups come before calls made after it (SPEC section 4).
 *
 * ```text
 * source:   a(b c)   — b and c arrive while a is delivered; d while b is delivered
 * output:   a b d c
 * ```
 *
 * 1. At top level a value is delivered synchronously, before `next` returns.
 * 2. Completion and errors wait until the frames in progress are drained.
 * 3. Nothing is ever delivered reentrantly, so no subscriber sees a nested `next`.
 */
export const trampoline =
  <T>(): MonoTypeOperatorFunction<T> =>
  (source) =>
    new Observable<T>((subscriber) => {
      let frames: Frame<T>[] = []
      let draining = false
      let finish: (() => void) | undefined
      const drain = (first: T): void => {
        draining = true
        frames = [{ items: [first], head: 0 }]
        try {
          while (frames.length > 0) {
            const top = frames[frames.length - 1] as Frame<T>
            if (top.head === top.items.length) {
              frames.pop()
              continue
            }
            const value = top.items[top.head] as T
            top.head++
            frames.push({ items: [], head: 0 })
            subscriber.next(value)
          }
        } finally {
          draining = false
          frames = []
        }
        finish?.()
      }
      const subscription = source.subscribe({
        next: (value) => {
          if (draining) (frames[frames.length - 1] as Frame<T>).items.push(value)
          else drain(value)
        },
        error: (error: unknown) => {
          finish = () => subscriber.error(error)
          if (!draining) finish()
        },
        complete: () => {
          finish = () => subscriber.complete()
          if (!draining) finish()
        },
      })
      return subscription
    })
