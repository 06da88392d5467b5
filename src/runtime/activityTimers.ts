import type { SchedulerLike, Subscription } from 'rxjs'

/**
 * Timers that outlive the engine (the approval limits of a paused turn, R66): the driver keeps
 * them, so a paused agent waiting hours for a person holds a few scheduled actions, not a whole
 * pipeline. A timer that fires posts its signal, which builds the engine again if it was
 * released. Each belongs to an activity and ends with it.
 */
export class ActivityTimers {
  #byActivity: Map<number, Set<Subscription>> | undefined

  constructor(private readonly scheduler: SchedulerLike) {}

  set(activity: number, ms: number, fire: () => void): void {
    this.#byActivity ??= new Map()
    let timers = this.#byActivity.get(activity)
    if (timers === undefined) {
      timers = new Set()
      this.#byActivity.set(activity, timers)
    }
    const own = timers
    const timer = this.scheduler.schedule(() => {
      own.delete(timer)
      fire()
    }, ms)
    own.add(timer)
  }

  /** The activity ended (its turn closed, or it was stopped): its timers never fire. */
  clear(activity: number): void {
    const timers = this.#byActivity?.get(activity)
    if (timers === undefined) return
    this.#byActivity?.delete(activity)
    for (const timer of timers) timer.unsubscribe()
  }

  clearAll(): void {
    for (const activity of [...(this.#byActivity?.keys() ?? [])]) this.clear(activity)
  }
}
