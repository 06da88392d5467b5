import { asyncScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import type { InboxJournal } from '../../src/contracts/inbox.js'
import { boundedStore } from '../../src/session/boundedStore.js'
import { memoryStore } from '../../src/session/memoryStore.js'

describe('boundedStore', () => {
  it("R50: the agent sees the store's inbox journal through the flush bound", () => {
    const inbox: InboxJournal = { load: () => [], append: () => {} }
    const store = { ...memoryStore(), inbox }
    expect(boundedStore(store, 1000, asyncScheduler).inbox).toBe(inbox)
    expect(boundedStore(store, Number.POSITIVE_INFINITY, asyncScheduler).inbox).toBe(inbox)
  })

  it('R50: a store without a journal gets none', () => {
    expect('inbox' in boundedStore(memoryStore(), 1000, asyncScheduler)).toBe(false)
  })
})
