import type { DurableDraft, SessionEvent } from '../events.js'
import type { Message } from '../messages/types.js'
import { freezeShallowNew } from './freeze.js'
import { projectEvent } from './projectMessages.js'
import type { SessionStore } from './store.js'

/**
 * The transcript in memory: numbers drafts (`seq` 1, 2, 3 …), freezes them, hands them to the
 * store, and keeps the surface projection up to date incrementally, so building a request never
 * re-derives the whole history.
 */
export class Transcript {
  private readonly list: SessionEvent[]
  private readonly projection: Message[] = []
  private snapshot: readonly Message[] | undefined

  constructor(
    private readonly store: SessionStore,
    history: readonly SessionEvent[],
  ) {
    this.list = [...history]
    for (const event of history) this.project(event)
  }

  get events(): readonly SessionEvent[] {
    return this.list
  }

  get size(): number {
    return this.list.length
  }

  append(draft: DurableDraft): SessionEvent {
    const event = freezeShallowNew({
      seq: this.list.length + 1,
      type: draft.type,
      data: draft.data,
    } as SessionEvent)
    this.list.push(event)
    this.project(event)
    this.store.append([event])
    return event
  }

  /** A frozen copy, shared until the next message is added (requests share it by reference). */
  messages(): readonly Message[] {
    this.snapshot ??= Object.freeze(this.projection.slice())
    return this.snapshot
  }

  private project(event: SessionEvent): void {
    const message = projectEvent(event)
    if (!message) return
    this.projection.push(Object.freeze(message))
    this.snapshot = undefined
  }
}
