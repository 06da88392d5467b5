import { filter, type Observable, Subject, takeUntil } from 'rxjs'
import type { Signal } from '../machine/inputs.js'

/**
 * An abort controller, made on first use (most turns never read their signal). A part of an
 * activity (a step's model request, one tool call) has a cell of its own, aborted with the
 * activity's and on its own (R68, R71).
 */
type AbortCell = { controller?: AbortController; parts?: Map<string, AbortCell>; parent?: AbortCell }

const controllerIn = (cell: AbortCell): AbortController => {
  if (cell.controller === undefined) {
    cell.controller = new AbortController()
    // A part first read after its activity aborted is aborted with the same cause.
    const parent = cell.parent?.controller?.signal
    if (parent?.aborted) cell.controller.abort(parent.reason)
  }
  return cell.controller
}

const abortCell = (cell: AbortCell, cause: unknown): void => {
  controllerIn(cell).abort(cause)
  if (cell.parts) for (const part of cell.parts.values()) abortCell(part, cause)
}

/** The key of a part of an activity: one stop notifier serves activities and parts. */
export type PartKey = string

/**
 * What the effect runner keeps per activity (an admission or a turn): its `AbortSignal` and its
 * stop, which unsubscribes whatever still runs for it (R25); and the same for its parts.
 *
 * Readers keep the cell, not the controller, so a signal first read after the activity stopped is
 * still the aborted one when it was aborted.
 */
export class Activities {
  // Made on first use: a turn whose effects all answer at once never stops anything.
  #cells: Map<number, AbortCell> | undefined
  #stop$: Subject<number | PartKey> | undefined

  cellOf(activity: number): AbortCell {
    this.#cells ??= new Map()
    let cell = this.#cells.get(activity)
    if (cell === undefined) {
      cell = {}
      this.#cells.set(activity, cell)
    }
    return cell
  }

  /** The cell of a part of `activity`, made on first use. */
  partOf(activity: number, part: PartKey): AbortCell {
    const parent = this.cellOf(activity)
    parent.parts ??= new Map()
    let cell = parent.parts.get(part)
    if (cell === undefined) {
      cell = { parent }
      parent.parts.set(part, cell)
    }
    return cell
  }

  /** Whether the part was aborted on its own (`abortPart`), without making anything. */
  partAborted(activity: number, part: PartKey): boolean {
    return this.#cells?.get(activity)?.parts?.get(part)?.controller?.signal.aborted === true
  }

  signalOf(activity: number): AbortSignal {
    return controllerIn(this.cellOf(activity)).signal
  }

  /** A signal getter for a request that may never read it (see `callModel`). */
  lazySignal(activity: number, part?: PartKey): () => AbortSignal {
    const cell = part === undefined ? this.cellOf(activity) : this.partOf(activity, part)
    return () => controllerIn(cell).signal
  }

  /** Aborts with a frozen copy of the cause, and every part with it; made here if nobody read it. */
  abort(activity: number, cause: object): void {
    abortCell(this.cellOf(activity), Object.freeze({ ...cause }))
  }

  /** Stops what runs for one part and aborts its signal (R68, R71); the activity goes on. */
  abortPart(activity: number, part: PartKey, cause: object): void {
    const cell = this.partOf(activity, part)
    this.#stop$?.next(partKey(activity, part))
    abortCell(cell, Object.freeze({ ...cause }))
  }

  /** Forgets a part, so the next one under its key starts afresh (the next step's request). */
  forgetPart(activity: number, part: PartKey): void {
    this.#cells?.get(activity)?.parts?.delete(part)
  }

  /** Unsubscribes whatever still runs for the activity and forgets it. */
  stop(activity: number): void {
    this.#stop$?.next(activity)
    this.#cells?.delete(activity)
  }

  /** Cuts `answer` off at the activity's stop, or at its part's (`abortPart`). */
  untilStopped<T = Signal>(activity: number, answer: Observable<T>, part?: PartKey): Observable<T> {
    this.#stop$ ??= new Subject<number | PartKey>()
    const key = part === undefined ? undefined : partKey(activity, part)
    return answer.pipe(takeUntil(this.#stop$.pipe(filter((id) => id === activity || id === key))))
  }
}

const partKey = (activity: number, part: PartKey): string => `${activity}/${part}`
