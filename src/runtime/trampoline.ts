import { type MonoTypeOperatorFunction, Observable } from 'rxjs'
import { Mailbox } from './mailbox.js'

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
 * What waits lives in `mailbox` (one per pipeline), which its owner may read: `waiting()`.
 */
export const trampoline =
  <T>(last?: (value: T) => boolean, mailbox: Mailbox<T> = new Mailbox<T>()): MonoTypeOperatorFunction<T> =>
  (source) =>
    new Observable<T>((subscriber) => {
      const box = mailbox
      const frames = box.frames
      const tail = box.tail
      let finish: (() => void) | undefined
      const drain = (first: T): void => {
        box.push(box.frameAt(0), first)
        box.depth = 0
        try {
          while (box.depth >= 0) {
            const top = frames[box.depth] as (typeof frames)[number]
            if (top.head === top.size) {
              top.head = 0
              top.size = 0
              // A burst (thousands of sends from one delivery) does not keep its room forever.
              if (top.items.length > 1024) top.items.length = 0
              box.depth--
              if (box.depth < 0 && tail.length > 0) {
                box.push(box.frameAt(0), tail.shift() as T)
                box.depth = 0
              }
              continue
            }
            const value = top.items[top.head] as T
            top.items[top.head] = undefined
            top.head++
            box.depth++
            box.frameAt(box.depth)
            subscriber.next(value)
          }
        } catch (error) {
          // Defensive: RxJS 7's Subscriber reports a consumer's throw instead of rethrowing it,
          // so nothing reaches here today. Should `next` ever throw, drop the values still
          // waiting, so the next drain starts clean instead of never draining again.
          box.clear()
          throw error
        }
        finish?.()
      }
      return source.subscribe({
        next: (value) => {
          if (box.depth < 0) drain(value)
          else if (last?.(value) === true) tail.push(value)
          else box.push(frames[box.depth] as (typeof frames)[number], value)
        },
        error: (error: unknown) => {
          finish = () => subscriber.error(error)
          if (box.depth < 0) finish()
        },
        complete: () => {
          finish = () => subscriber.complete()
          if (box.depth < 0) finish()
        },
      })
    })
