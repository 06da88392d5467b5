/**
 * R77 across real processes: a worker process owns the session; this process, a client, undoes
 * turns there. A rollback stored right behind a followup waits for the followup's turn to end and
 * undoes that turn, whether the worker reads both rows at once or one by one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Message } from '../../../src/index.js'
import { connectSessions, migrate } from '../../../src/postgres.js'
import { bundleChild, type ChildProgram } from '../../support/bundleChild.js'
import { committedEvents, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
let workers: ChildProgram
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  workers = await bundleChild('workerChild', { deadlineMs: 60_000 })
}, 120_000)
afterAll(async () => {
  workers.remove()
  await db.drop()
})

const texts = (messages: readonly Message[]) =>
  messages.map((m) => `${m.role}:${m.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('')}`)

const turnsEnded = async (session: string): Promise<number> =>
  (await committedEvents(db.pool, session)).filter((e) => e.type === 'turn/end').length

it('R77: a client undoes turns a worker process ran: at once while idle, and after the turn of a followup stored just before', async () => {
  const worker = workers.start({ env: { DATABASE_URL: db.url, CONCURRENCY: '2' } })
  await worker.line(/^ready$/)
  const session = 'rollback-in-a-worker'
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session(session)
  try {
    for (const text of ['one', 'two', 'three']) await remote.followup(text)
    await until(async () => (await turnsEnded(session)) === 3, 'three turns')
    await remote.rollback(1)
    expect((await committedEvents(db.pool, session)).at(-1)).toMatchObject({
      type: 'rollback',
      data: { toTurn: 2 },
    })
    expect(texts(await remote.messages())).toEqual(['user:one', 'assistant:ok', 'user:two', 'assistant:ok'])

    // Not awaited: the rollback row is stored right after the followup's, in this client's order.
    void remote.followup('four')
    await remote.rollback(1)
    const events = await committedEvents(db.pool, session)
    expect(events.filter((e) => e.type === 'rollback').map((e) => e.data)).toEqual([
      { toTurn: 2 },
      { toTurn: 2 },
    ])
    expect(events.filter((e) => e.type === 'turn/end').map((e) => e.data.turn)).toEqual([1, 2, 3, 4])
    expect(texts(await remote.messages())).toEqual(['user:one', 'assistant:ok', 'user:two', 'assistant:ok'])
    expect(worker.lines.filter((line) => line.startsWith('error '))).toEqual([])
  } finally {
    await client.close()
  }
}, 120_000)
