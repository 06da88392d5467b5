import { Observable, Subject } from 'rxjs'
import type { AgentEvent, SessionEvent } from '../contracts/events.js'
import type { Published } from './publishOutputs.js'

/**
 * What an agent's subscribers share: `events$` and `durable$` (behind `status$` and
 * `transcript$`), served by one Subject that outlives the agent's engine, so a subscriber never
 * notices the engine being released and built again. The Subject is made on the first
 * subscription; an output nobody observes is not sent through it (a Subject's `next` costs an
 * ES5 iteration in the CommonJS RxJS that Node loads, docs/performance.md#inlets-instead-of-subjects).
 * `completed()` resolves when the pipeline has completed (what `dispose()` returns).
 */
export class Broadcast {
  #subject: Subject<Published> | undefined
  /** How the pipeline ended, once it has. */
  #end: { readonly error?: unknown; readonly failed: boolean } | undefined
  #completed: { readonly promise: Promise<void>; resolve(): void } | undefined
  #events$: Observable<AgentEvent> | undefined
  #durable$: Observable<SessionEvent> | undefined

  get ended(): boolean {
    return this.#end !== undefined
  }

  get events$(): Observable<AgentEvent> {
    this.#events$ ??= this.#outputs('live') as Observable<AgentEvent>
    return this.#events$
  }

  get durable$(): Observable<SessionEvent> {
    this.#durable$ ??= this.#outputs('event') as Observable<SessionEvent>
    return this.#durable$
  }

  publish(output: Published): void {
    const subject = this.#subject
    if (subject?.observed === true) subject.next(output)
  }

  /**
   * A defect (the reducer threw) errors the streams; it is rethrown when nobody observes them, so
   * RxJS reports it (`config.onUnhandledError`, else an uncaught error) instead of losing it.
   */
  fail(error: unknown): void {
    this.#end = { error, failed: true }
    const subject = this.#subject
    subject?.error(error)
    if (subject?.observed !== true) throw error
  }

  complete(): void {
    this.#end = { failed: false }
    this.#subject?.complete()
    this.#completed?.resolve()
  }

  /** Resolves once the pipeline has completed; never, when a defect ended it. */
  completed(): Promise<void> {
    if (this.#end !== undefined && !this.#end.failed) return Promise.resolve()
    if (this.#completed === undefined) {
      let resolve: () => void = () => {}
      const promise = new Promise<void>((r) => {
        resolve = r
      })
      this.#completed = { promise, resolve }
    }
    return this.#completed.promise
  }

  /** The events of one kind of output, as `filter` + `map` would give them, in one subscriber. */
  #outputs(kind: Published['kind']): Observable<unknown> {
    return new Observable<unknown>((subscriber) =>
      this.#published().subscribe({
        next: (o) => {
          if (o.kind === kind) subscriber.next(o.event)
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    )
  }

  #published(): Subject<Published> {
    if (this.#subject === undefined) {
      this.#subject = new Subject<Published>()
      const end = this.#end
      if (end?.failed) this.#subject.error(end.error)
      else if (end) this.#subject.complete()
    }
    return this.#subject
  }
}
