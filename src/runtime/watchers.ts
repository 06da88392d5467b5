import type { Subscriber } from 'rxjs'

type WindowWatcher = { readonly subscriber: Subscriber<boolean>; last: boolean }

/**
 * The subscribers of a driver's `snapshots$` and `window$`: told the state after each reduction,
 * each window move at its place among a reduction's outputs, and the end. A copy of each list is
 * walked, so a subscriber that leaves or joins during a call changes only later calls.
 */
export class Watchers<S extends { readonly window: boolean }> {
  readonly #states = new Set<Subscriber<S>>()
  readonly #windows = new Set<WindowWatcher>()

  /** A subscriber of an ended driver: the last state or window, then complete. */
  static ended<S extends { readonly window: boolean }>(
    subscriber: Subscriber<S> | Subscriber<boolean>,
    kind: 'state' | 'window',
    state: S,
  ): () => void {
    first(subscriber, kind, state)
    subscriber.complete()
    return () => {}
  }

  /** Gives a subscriber the current state or window, and adds it; returns its removal. */
  add(subscriber: Subscriber<S> | Subscriber<boolean>, kind: 'state' | 'window', state: S): () => void {
    first(subscriber, kind, state)
    if (kind === 'state') {
      const s = subscriber as Subscriber<S>
      this.#states.add(s)
      return () => this.#states.delete(s)
    }
    // A subscriber that joins inside a reduction already read its final value: a move placed
    // later among that reduction's outputs is not news to it.
    const w: WindowWatcher = { subscriber: subscriber as Subscriber<boolean>, last: state.window }
    this.#windows.add(w)
    return () => this.#windows.delete(w)
  }

  state(state: S): void {
    if (this.#states.size === 0) return
    for (const s of [...this.#states]) s.next(state)
  }

  window(open: boolean): void {
    if (this.#windows.size === 0) return
    for (const w of [...this.#windows]) {
      if (w.last === open) continue
      w.last = open
      w.subscriber.next(open)
    }
  }

  end(): void {
    for (const s of [...this.#states]) s.complete()
    for (const w of [...this.#windows]) w.subscriber.complete()
    this.#states.clear()
    this.#windows.clear()
  }
}

const first = <S extends { readonly window: boolean }>(
  subscriber: Subscriber<S> | Subscriber<boolean>,
  kind: 'state' | 'window',
  state: S,
): void => {
  if (kind === 'state') (subscriber as Subscriber<S>).next(state)
  else (subscriber as Subscriber<boolean>).next(state.window)
}
