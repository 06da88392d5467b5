import type { Summarizer } from '../contracts/compaction.js'

/**
 * The summarisers `compact()` calls were given (R74), by the number the reducer's order carries:
 * a function is not data, so the reducer names it and the effect runner looks it up. Number 0 is
 * the agent's own (its `compaction.summarize`, else the model with the built-in prompt).
 */
export class Summarizers {
  #next = 1
  readonly #given = new Map<number, Summarizer>()
  readonly #fallback: Summarizer | undefined
  /** How many turns a compaction keeps when `compact()` does not say. */
  readonly keepLastTurns: number

  /** The agent has a summariser of its own (`compaction.summarize`), so the model is not asked. */
  get hasOwn(): boolean {
    return this.#fallback !== undefined
  }

  constructor(fallback: Summarizer | undefined, keepLastTurns: number) {
    this.#fallback = fallback
    this.keepLastTurns = keepLastTurns
  }

  /** Keeps a call's summariser until its compaction starts or ends; its number either way. */
  add(summarize: Summarizer | undefined): number {
    const ref = this.#next++
    if (summarize) this.#given.set(ref, summarize)
    return ref
  }

  /** The summariser for `ref`, forgotten here: `undefined` means the model's built-in prompt. */
  take(ref: number): Summarizer | undefined {
    const given = this.#given.get(ref)
    this.#given.delete(ref)
    return given ?? this.#fallback
  }

  /** A call that joined another compaction never had its summariser taken: let it go. */
  forget(ref: number): void {
    this.#given.delete(ref)
  }
}
