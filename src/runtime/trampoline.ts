import { type MonoTypeOperatorFunction, Observable } from 'rxjs'

/**
 * Values that arrived while the value one level up was being delivered; reused across drains.
 * `items[head..size)` are waiting. The array is never shortened (setting `length` is a runtime
 * call and frees the backing store, so the next push reallocates it); slots are cleared instead.
 */
type Frame<T> = { readonly items: (T | undefined)[]; head: number; size: number }

/**
 * Delivers values one at a time, depth-first: a value that arrives while another is being
 * delivered (a reentrant call from a subscriber, an effect that answers synchronously) waits
 * until that delivery returned, and values that arrived during a delivery run right after it,
 * in arrival order, before the values that were already waiting. Like `observeOn(queueScheduler)`,
 * but depth-first, so a call's own follow-ups come before calls made after it (docs/contract.md, section 4).
 *
 * ```text
 * source:   a(b c)   — b and c arrive while a is delivered; d while b is delivered
 * output:   a b d c
 * ```
 *
 * 1. At top level a value is delivered synchronously, before `next` returns.
 * 2. Completion and errors wait until the frames in progress are drained.
 * 3. Nothing is ever delivered reentrantly, so no subscriber sees a nested `next`.
 * 4. A value for which `last` holds, arriving during a drain, waits until everything else of that
 *    drain was delivered (such values keep their arrival order): "after this call stack", without
 *    a scheduler. The pipeline uses it to finish `dispose()` after what was sent with it (R29).
 *
 * ```text
 * source:   a(L b)   — L (last) and b arrive while a is delivered; d while b is delivered
 * output:   a b d L
 * ```
 *
 * The frames are kept and reused from one drain to the next (a drain runs per accepted send and
 * per turn step), so a steady pipeline allocates nothing here
 * (docs/performance.md#trampoline-frames-are-reused).
 */
export const trampoline =
  <T>(last?: (value: T) => boolean): MonoTypeOperatorFunction<T> =>
  (source) =>
    new Observable<T>((subscriber) => {
      const frames: Frame<T>[] = []
      /** The `last` values of the drain in progress (rare: a plain array). */
      const tail: T[] = []
      /** The frame collecting arrivals: `depth - 1` is the delivery in progress. */
      let depth = -1
      let finish: (() => void) | undefined
      const frameAt = (at: number): Frame<T> => {
        let frame = frames[at]
        if (frame === undefined) {
          // Room for two: most frames hold one or two values, and `[]` grows to 17 slots on its
          // first push, 136 bytes that an idle agent would keep in each of its ten or so frames.
          frame = { items: [undefined, undefined], head: 0, size: 0 }
          frames[at] = frame
        }
        return frame
      }
      const push = (frame: Frame<T>, value: T): void => {
        if (frame.size === frame.items.length) frame.items.push(value)
        else frame.items[frame.size] = value
        frame.size++
      }
      const drain = (first: T): void => {
        push(frameAt(0), first)
        depth = 0
        try {
          while (depth >= 0) {
            const top = frames[depth] as Frame<T>
            if (top.head === top.size) {
              top.head = 0
              top.size = 0
              // A burst (thousands of sends from one delivery) does not keep its room forever.
              if (top.items.length > 1024) top.items.length = 0
              depth--
              if (depth < 0 && tail.length > 0) {
                push(frameAt(0), tail.shift() as T)
                depth = 0
              }
              continue
            }
            const value = top.items[top.head] as T
            top.items[top.head] = undefined
            top.head++
            depth++
            frameAt(depth)
            subscriber.next(value)
          }
        } catch (error) {
          // Defensive: RxJS 7's Subscriber reports a consumer's throw instead of rethrowing it,
          // so nothing reaches here today. Should `next` ever throw, drop the values still
          // waiting, so the next drain starts clean instead of never draining again.
          for (const frame of frames) {
            frame.items.fill(undefined, frame.head, frame.size)
            frame.head = 0
            frame.size = 0
          }
          tail.length = 0
          depth = -1
          throw error
        }
        finish?.()
      }
      return source.subscribe({
        next: (value) => {
          if (depth < 0) drain(value)
          else if (last?.(value) === true) tail.push(value)
          else push(frames[depth] as Frame<T>, value)
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
