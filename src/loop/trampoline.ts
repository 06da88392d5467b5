import { type MonoTypeOperatorFunction, Observable } from 'rxjs'

/** Values that arrived while the value one level up was being delivered; reused across drains. */
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
 *
 * The frames are kept and reused from one drain to the next (a drain runs per accepted send and
 * per turn step, issue #7), so a steady pipeline allocates nothing here.
 */
export const trampoline =
  <T>(): MonoTypeOperatorFunction<T> =>
  (source) =>
    new Observable<T>((subscriber) => {
      const frames: Frame<T>[] = []
      /** The frame collecting arrivals: `depth - 1` is the delivery in progress. */
      let depth = -1
      let finish: (() => void) | undefined
      const frameAt = (at: number): Frame<T> => {
        let frame = frames[at]
        if (frame === undefined) {
          frame = { items: [], head: 0 }
          frames[at] = frame
        }
        return frame
      }
      const drain = (first: T): void => {
        const root = frameAt(0)
        root.items.push(first)
        depth = 0
        try {
          while (depth >= 0) {
            const top = frames[depth] as Frame<T>
            if (top.head === top.items.length) {
              top.items.length = 0
              top.head = 0
              depth--
              continue
            }
            const value = top.items[top.head] as T
            top.head++
            depth++
            frameAt(depth)
            subscriber.next(value)
          }
        } finally {
          // Only an error thrown by a subscriber gets here with frames left: drop their values.
          for (const frame of frames) {
            frame.items.length = 0
            frame.head = 0
          }
          depth = -1
        }
        finish?.()
      }
      return source.subscribe({
        next: (value) => {
          if (depth >= 0) (frames[depth] as Frame<T>).items.push(value)
          else drain(value)
        },
        error: (error: unknown) => {
          finish = () => subscriber.error(error)
          if (depth < 0) finish()
        },
        complete: () => {
          finish = () => subscriber.complete()
          if (depth < 0) finish()
        },
      })
    })
