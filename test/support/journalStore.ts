import type { InboxRecord } from '../../src/contracts/inbox.js'
import type { SessionEvent, SessionStore } from '../../src/index.js'

/**
 * A session store with an inbox journal, kept in arrays that outlive the agents on it: `crash()`
 * stops the current agent's writes where they are (what was flushed stays, what was only
 * appended is lost), and `open()` gives the next agent a store on what survived.
 */
export const journalStore = () => {
  const durable = { events: [] as SessionEvent[], records: [] as InboxRecord[] }
  let alive: { dead: boolean } = { dead: true }
  const open = (): SessionStore & { inbox: NonNullable<SessionStore['inbox']> } => {
    const self = { dead: false }
    alive.dead = true
    alive = self
    const pending = { events: [] as SessionEvent[], records: [] as InboxRecord[] }
    return {
      load: () => durable.events.slice(),
      append: (events) => {
        if (!self.dead) pending.events.push(...events)
      },
      flush: () => {
        if (!self.dead) {
          durable.events.push(...pending.events.splice(0))
          durable.records.push(...pending.records.splice(0))
        }
        return Promise.resolve()
      },
      inbox: {
        load: () => durable.records.slice(),
        append: (records) => {
          if (!self.dead) pending.records.push(...records)
        },
      },
    }
  }
  return {
    durable,
    open,
    crash: () => {
      alive.dead = true
    },
  }
}
