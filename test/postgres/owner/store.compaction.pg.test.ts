/**
 * R50, R53: the inbox journal on PostgreSQL is compacted when an owner takes the lease, as a file
 * store's is on open: the applied remote sends and the owner's records of delivered messages go,
 * every settlement, every waiting item and every remote request not applied yet stay, in one
 * transaction (a failure changes nothing), and what the store restores is what it restored before.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { connectSessions, migrate, openPostgresSession } from '../../../src/postgres.js'
import { writeDeliveredHistory } from '../../support/postgresHistory.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const TURNS = 300
const message = (id: string) => ({ id, content: [{ type: 'text', text: id }], source: { kind: 'user' } })

/** A delivered history, then a parked item, a settlement and a remote send nobody applied yet. */
const writeSession = async (sessionId: string) => {
  await writeDeliveredHistory((text, values) => db.pool.query(text, values), sessionId, TURNS)
  const rows = [
    ['add', 'parked-1', { op: 'add', message: message('parked-1'), placement: 'parked' }, 1],
    ['settle', null, { op: 'settle', id: 'gone-1', outcome: { kind: 'discarded', reason: 'removed' } }, 1],
    [
      'send',
      'sent-1',
      { op: 'send', message: message('sent-1'), options: { target: 'next-turn', wakeup: true } },
      null,
    ],
  ] as const
  for (const [i, [op, id, record, epoch]] of rows.entries())
    await db.pool.query(
      `INSERT INTO steerable_inbox (session_id, seq, op, message_id, epoch, record)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [sessionId, 2 * TURNS + i + 1, op, id, epoch, JSON.stringify(record)],
    )
  await db.pool.query('UPDATE steerable_sessions SET inbox_seq = inbox_seq + 3 WHERE id = $1', [sessionId])
}
const journal = async (sessionId: string) =>
  (
    await db.pool.query(
      'SELECT op, message_id, record FROM steerable_inbox WHERE session_id = $1 ORDER BY seq',
      [sessionId],
    )
  ).rows.map((row) => `${row.op}:${row.message_id ?? row.record.id}`)

it('R50, R53: taking the lease compacts the journal: settled and delivered rows go, nothing that waits is lost', async () => {
  await writeSession('compacted')
  const before = await openPostgresSession(db.pool, 'compacted')
  expect((await journal('compacted')).length).toBe(2 * TURNS + 3)

  const store = await openPostgresSession(db.pool, 'compacted')
  await store.takeLease()
  // Every settlement, then each waiting item, then the remote send nobody applied (kept as it was).
  expect(await journal('compacted')).toEqual(['send:sent-1', 'settle:gone-1', 'add:parked-1'])
  expect(store.inbox.load()).toEqual([
    { op: 'settle', id: 'gone-1', outcome: { kind: 'discarded', reason: 'removed' } },
    { op: 'add', message: message('parked-1'), placement: 'parked' },
  ])
  expect(store.remoteRequests).toEqual(before.remoteRequests)
  expect(store.load()).toEqual(before.load())
  await store.release()

  // Outcomes read the same from the compacted journal and the transcript.
  const client = connectSessions(db.pool, { pollMs: 100 })
  const session = client.session('compacted')
  expect(await session.outcome('gone-1' as never)).toEqual({ kind: 'discarded', reason: 'removed' })
  expect(await session.outcome('m-7' as never)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 7 })
  await client.close()

  // A short journal is left as it is: the next owner rewrites nothing.
  const next = await openPostgresSession(db.pool, 'compacted')
  await next.takeLease()
  expect(await journal('compacted')).toEqual(['send:sent-1', 'settle:gone-1', 'add:parked-1'])
  await next.release()
})

it('R50, R54: a compaction that fails inside the database changes nothing, and the lease is let go', async () => {
  await writeSession('failed-compaction')
  await db.pool.query(`
    CREATE FUNCTION refuse_owner_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.session_id = 'failed-compaction' AND NEW.epoch IS NOT NULL THEN
        RAISE EXCEPTION 'owner rows refused';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER refuse_owner_rows BEFORE INSERT ON steerable_inbox FOR EACH ROW EXECUTE FUNCTION refuse_owner_rows();
  `)
  try {
    const store = await openPostgresSession(db.pool, 'failed-compaction')
    await expect(store.takeLease()).rejects.toThrow(/owner rows refused/)
    expect((await journal('failed-compaction')).length).toBe(2 * TURNS + 3)
  } finally {
    await db.pool.query('DROP TRIGGER refuse_owner_rows ON steerable_inbox')
  }
  // The lease went with the failure: another owner takes it and compacts.
  const store = await openPostgresSession(db.pool, 'failed-compaction')
  await store.takeLease()
  expect(await journal('failed-compaction')).toEqual(['send:sent-1', 'settle:gone-1', 'add:parked-1'])
  await store.release()
})
