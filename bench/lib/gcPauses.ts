/**
 * The garbage collector's pauses, to say how much of a timed loop they took. A
 * `PerformanceObserver` collects every `gc` entry (start and duration, on the same clock as
 * `performance.now()`); `within(from, to)` sums the pauses that started inside a window.
 *
 * Entries reach the observer after the loop, once the event loop has turned, so read them only
 * after an `await` (`settle()`).
 */
import { PerformanceObserver } from 'node:perf_hooks'
import { setImmediate } from 'node:timers/promises'

export type GcPauses = {
  /** Milliseconds of GC pause that started in `[from, to)` (`performance.now()` times). */
  within(from: number, to: number): number
  /** Lets pending entries arrive: call before `within` for a window that just ended. */
  settle(): Promise<void>
  stop(): void
}

export const gcPauses = (): GcPauses => {
  const pauses: { readonly start: number; readonly duration: number }[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, duration: entry.duration })
  })
  observer.observe({ entryTypes: ['gc'] })
  return {
    within: (from, to) =>
      pauses.reduce((sum, p) => (p.start >= from && p.start < to ? sum + p.duration : sum), 0),
    settle: async () => {
      await setImmediate()
      await setImmediate()
    },
    stop: () => observer.disconnect(),
  }
}
