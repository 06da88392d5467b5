import type { Reduced } from '../machine/reduce.js'
import { type DeliveryState, isQuiescent } from '../machine/state.js'

/**
 * When `whenIdle()` may resolve (R28): the state is quiescent and no input is waiting in the
 * trampoline. A quiescent reduction is not enough: a subscriber of its events may already have
 * queued chained work (a goal continuation reacting to `idle`), which R28 says to follow. Inputs
 * are counted as they enter the pipeline (`entered`) and as their reductions finish delivery
 * (`delivered`, called after the outputs went out). Once the pipeline ended (`end`), every
 * `whenIdle()` resolves: a disposed agent is idle, and `whenIdle()` never rejects.
 */
export const idleTracker = () => {
  let entered = 0
  let delivered = 0
  let waiters: (() => void)[] = []
  let ended = false
  const settle = (): void => {
    const ready = waiters
    waiters = []
    for (const resolve of ready) resolve()
  }
  const isIdle = (s: DeliveryState): boolean => ended || (entered === delivered && isQuiescent(s))
  return {
    entered: (): void => {
      entered++
    },
    delivered: (r: Reduced): void => {
      delivered++
      if (waiters.length > 0 && isIdle(r.state)) settle()
    },
    isIdle,
    wait: (resolve: () => void): void => {
      waiters.push(resolve)
    },
    /** The pipeline ended: every `whenIdle()`, pending or later, resolves. */
    end: (): void => {
      ended = true
      settle()
    },
  }
}
