import type { InboxRecord } from '../../../src/contracts/inbox.js'
import type { SessionEvent, SessionStore } from '../../../src/index.js'
import { alreadyFlushed } from '../../../src/session/memoryStore.js'

/**
 * A session's disk, shared by the processes of one run: each `open()` is a process's store on it
 * (the one before it stops writing). What a store appends is durable only once flushed, and a
 * flush answers at once, so the whole run stays one synchronous virtual-time replay. `crash()`
 * ends the current process's writes where they are: what it appended since its last flush is lost.
 */
export class Disk {
  readonly events: SessionEvent[] = []
  readonly records: InboxRecord[] = []
  #alive = { dead: true }

  open(): SessionStore {
    this.#alive.dead = true
    const self = { dead: false }
    this.#alive = self
    const pending = { events: [] as SessionEvent[], records: [] as InboxRecord[] }
    return {
      load: () => this.events.slice(),
      append: (events) => {
        if (!self.dead) pending.events.push(...events)
      },
      flush: () => {
        if (!self.dead) {
          this.events.push(...pending.events.splice(0))
          this.records.push(...pending.records.splice(0))
        }
        return alreadyFlushed
      },
      inbox: {
        load: () => this.records.slice(),
        append: (records) => {
          if (!self.dead) pending.records.push(...records)
        },
      },
    }
  }

  crash(): void {
    this.#alive.dead = true
  }

  /** Whether the disk holds `id`: in the transcript, or in the inbox journal. */
  holds(id: string): boolean {
    return (
      this.events.some((e) => 'data' in e && (e.data as { id?: string }).id === id) ||
      this.records.some((r) => ('message' in r ? r.message.id : r.id) === id)
    )
  }
}
