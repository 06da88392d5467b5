/**
 * R53, R57: migration step 3 upgrades a database written by an older version: the waiting work
 * already in its journals gets the `pending` flag the scan reads (a remote send nobody applied,
 * a queued item never delivered, a remote edit after `remote_applied`), and delivered or settled
 * rows do not, so a worker finds exactly the sessions it found before the upgrade.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MIGRATIONS, MIGRATIONS_TABLE } from '../../../src/postgres/db/schema.js'
import { sessionsWithWork } from '../../../src/postgres/worker/sessionsWithWork.js'
import { migrate } from '../../../src/postgres.js'
import { writeDeliveredHistory } from '../../support/postgresHistory.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  // The schema as step 2 left it.
  await db.pool.query(MIGRATIONS_TABLE)
  for (const step of MIGRATIONS.slice(0, 2)) for (const statement of step) await db.pool.query(statement)
  await db.pool.query('INSERT INTO steerable_migrations (version) VALUES (1), (2)')
})
afterAll(() => db.drop())

const message = (id: string) => ({ id, content: [{ type: 'text', text: id }], source: { kind: 'user' } })
const journalRow = async (sessionId: string, seq: number, op: string, id: string | null, record: object) => {
  await db.pool.query(
    `INSERT INTO steerable_sessions (id, inbox_seq) VALUES ($1, $2)
     ON CONFLICT (id) DO UPDATE SET inbox_seq = greatest(steerable_sessions.inbox_seq, $2)`,
    [sessionId, seq],
  )
  await db.pool.query(
    'INSERT INTO steerable_inbox (session_id, seq, op, message_id, record) VALUES ($1, $2, $3, $4, $5)',
    [sessionId, seq, op, id, JSON.stringify(record)],
  )
}
const send = (id: string) => ({
  op: 'send',
  message: message(id),
  options: { target: 'next-turn', wakeup: true },
})

it('R53, R57: after migrate, the scan finds the sessions with waiting work written before it, and only those', async () => {
  const query = (text: string, values?: unknown[]) => db.pool.query(text, values)
  await writeDeliveredHistory(query, 'all-delivered', 20)
  await journalRow('unapplied-send', 1, 'send', 'u-1', send('u-1'))
  await journalRow('queued-undelivered', 1, 'add', 'q-1', {
    op: 'add',
    message: message('q-1'),
    placement: 'queued',
  })
  await journalRow('parked-only', 1, 'add', 'p-1', {
    op: 'add',
    message: message('p-1'),
    placement: 'parked',
  })
  await journalRow('settled', 1, 'send', 's-1', send('s-1'))
  await journalRow('settled', 2, 'settle', null, {
    op: 'settle',
    id: 's-1',
    outcome: { kind: 'discarded', reason: 'removed' },
  })
  await journalRow('edit-waiting', 1, 'remote-promote', 'r-1', {
    op: 'remote-promote',
    request: 'r-1',
    id: 'x',
  })
  await journalRow('edit-applied', 1, 'remote-promote', 'r-2', {
    op: 'remote-promote',
    request: 'r-2',
    id: 'x',
  })
  await db.pool.query(`UPDATE steerable_sessions SET remote_applied = 1 WHERE id = 'edit-applied'`)

  expect(await migrate(db.pool)).toEqual({ from: 2, to: 3 })
  const found = await sessionsWithWork(query, 100)
  expect(found.map((s) => s.id).sort()).toEqual(['edit-waiting', 'queued-undelivered', 'unapplied-send'])
})
