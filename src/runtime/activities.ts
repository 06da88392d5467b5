import { filter, type Observable, Subject, takeUntil } from 'rxjs'
import type { Signal } from '../machine/inputs.js'

/** An activity's abort controller, made on first use (most turns never read their signal). */
type AbortCell = { controller?: AbortController }

const controllerIn = (cell: AbortCell): AbortController => {
  cell.controller ??= new AbortController()
  return cell.controller
}

/**
 * What the effect runner keeps per activity (an admission or a turn): its `AbortSignal` and its
 * stop, which unsubscribes whatever still runs for it (R25).
 *
 * Readers keep the cell, not the controller, so a signal first read after the activity stopped is
 * still the aborted one when it was aborted.
 */
export class Activities {
  // Made on first use: a turn whose effects all answer at once never stops anything.
  #cells: Map<number, AbortCell> | undefined
  #stop$: Subject<number> | undefined

  cellOf(activity: number): AbortCell {
    this.#cells ??= new Map()
    let cell = this.#cells.get(activity)
    if (cell === undefined) {
      cell = {}
      this.#cells.set(activity, cell)
    }
    return cell
  }

  signalOf(activity: number): AbortSignal {
    return controllerIn(this.cellOf(activity)).signal
  }

  /** A signal getter for a request that may never read it (see `callModel`). */
  lazySignal(activity: number): () => AbortSignal {
    const cell = this.cellOf(activity)
    return () => controllerIn(cell).signal
  }

  /** Aborts with a frozen copy of the cause; made here if nobody read the signal yet. */
  abort(activity: number, cause: object): void {
    controllerIn(this.cellOf(activity)).abort(Object.freeze({ ...cause }))
  }

  /** Unsubscribes whatever still runs for the activity and forgets it. */
  stop(activity: number): void {
    this.#stop$?.next(activity)
    this.#cells?.delete(activity)
  }

  /** Cuts `answer` off at the activity's stop. */
  untilStopped(activity: number, answer: Observable<Signal>): Observable<Signal> {
    this.#stop$ ??= new Subject<number>()
    return answer.pipe(takeUntil(this.#stop$.pipe(filter((id) => id === activity))))
  }
}
