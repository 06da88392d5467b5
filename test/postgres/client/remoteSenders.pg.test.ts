/**
 * R55 across processes: clients in child processes (test/support/children/senderChild.ts)
 * send into one session at once. Every send is stored exactly once, the journal numbers leave
 * no gap and no duplicate, and each client's sends keep the order it made them in.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { migrate, openPostgresSession } from '../../../src/postgres.js'
import { bundleChild, type ChildProgram } from '../../support/bundleChild.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
let program: ChildProgram
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  program = await bundleChild('senderChild', { deadlineMs: 60_000 })
}, 60_000)
afterAll(async () => {
  program.remove()
  await db.drop()
})

it('R55: sends racing from three processes are each stored once, and each process keeps its order', async () => {
  const senders = [1, 2, 3].map(() =>
    program.start({ env: { DATABASE_URL: db.url, SESSION: 'crowd', COUNT: '30' } }),
  )
  await Promise.all(senders.map((s) => s.line(/^done$/)))
  const sent = senders.map((s) => s.lines.filter((l) => l.startsWith('id ')).map((l) => l.slice(3)))
  const { rows } = await db.pool.query(
    `SELECT seq, message_id FROM steerable_inbox WHERE session_id = 'crowd' AND op = 'send' ORDER BY seq`,
  )
  expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1))
  const stored = rows.map((r) => r.message_id as string)
  expect(new Set(stored).size).toBe(90)
  for (const ids of sent) expect(stored.filter((id) => ids.includes(id))).toEqual(ids)
  // The owner sees all of them waiting, in journal order.
  const store = await openPostgresSession(db.pool, 'crowd')
  expect(store.remoteSends.map((s) => s.record.message.id)).toEqual(stored)
}, 60_000)
