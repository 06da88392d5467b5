/**
 * One owner per session (R54), with real processes (test/support/children/leaseChild.ts): two
 * processes race for a session, an owner killed with SIGKILL is replaced, and an owner that lost
 * its lease without noticing (frozen with SIGSTOP while its connection was cut) writes nothing
 * once it runs again. The events table records each row's writer epoch: along `seq` the epochs
 * never go down, which is what "two owners never both append" leaves behind.
 */
import { from, lastValueFrom } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SessionStoreError } from '../../../src/index.js'
import { migrate, openPostgresSession } from '../../../src/postgres.js'
import { bundleChild, type ChildProgram } from '../../support/bundleChild.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
let program: ChildProgram
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  program = await bundleChild('leaseChild', { deadlineMs: 60_000 })
}, 60_000)
afterAll(async () => {
  program.remove()
  await db.drop()
})

const owner = (session: string, name: string, more: Record<string, string> = {}) =>
  program.start({ env: { DATABASE_URL: db.url, SESSION: session, NAME: name, ...more } })

/** `[seq, epoch]` of every event of `session`, in seq order. */
const written = async (session: string): Promise<[number, number][]> =>
  (
    await db.pool.query('SELECT seq, epoch FROM steerable_events WHERE session_id = $1 ORDER BY seq', [
      session,
    ])
  ).rows.map((r) => [Number(r.seq), Number(r.epoch)])

const epochsNeverGoDown = (rows: [number, number][]) =>
  rows.every(([, epoch], i) => i === 0 || epoch >= rows[i - 1]![1])

it('R54: of two processes that try to own one session, exactly one does', async () => {
  const a = owner('race', 'race-a', { WRITES: '3' })
  const b = owner('race', 'race-b', { WRITES: '3' })
  const outcomes = await Promise.all([a, b].map((c) => c.line(/^(owner|locked)/)))
  expect(outcomes.filter((l) => l.startsWith('owner'))).toHaveLength(1)
  const locked = outcomes.find((l) => l.startsWith('locked'))
  expect(locked).toMatch(
    /session "race" on PostgreSQL is (open for writing by process \d+|being opened for writing by another process)/,
  )
  const winner = outcomes[0]!.startsWith('owner') ? a : b
  await winner.line(/^done/)
  expect((await written('race')).map(([seq]) => seq)).toEqual([1, 2, 3])
}, 60_000)

it('R54: when the owner is killed with SIGKILL another process takes over with a higher epoch and continues the log', async () => {
  const first = owner('failover', 'failover-a')
  const [, firstEpoch] = (await first.line(/^owner/)).split(' ')
  await first.line(/^wrote 3$/)
  const second = owner('failover', 'failover-b', { WAIT: '1', WRITES: '3' })
  first.signal('SIGKILL')
  await first.exit
  const [, epoch, loaded] = (await second.line(/^owner/)).split(' ')
  expect(Number(epoch)).toBeGreaterThan(Number(firstEpoch))
  await second.line(/^done/)
  const rows = await written('failover')
  // The new owner read every checkpoint the old one committed, and wrote right after them.
  expect(rows.filter(([, e]) => e === Number(firstEpoch))).toHaveLength(Number(loaded))
  expect(rows.map(([seq]) => seq)).toEqual(rows.map((_, i) => i + 1))
  expect(rows.filter(([, e]) => e === Number(epoch))).toHaveLength(3)
  expect(epochsNeverGoDown(rows)).toBe(true)
}, 60_000)

it('R54: an owner that lost its lease while frozen writes nothing once it runs again, and says so', async () => {
  const stale = owner('stale', 'stale-a')
  await stale.line(/^wrote 2$/)
  stale.signal('SIGSTOP')
  try {
    // Its connections are cut while it cannot notice: the lease is free for another process.
    await db.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'stale-a'`,
    )
    const next = owner('stale', 'stale-b', { WAIT: '1', WRITES: '3' })
    await next.line(/^done/)
  } finally {
    stale.signal('SIGCONT')
  }
  const refused = await stale.line(/^refused/)
  expect(refused).toMatch(/^refused SessionStoreError session "stale" on PostgreSQL: .*lost its lease/)
  const rows = await written('stale')
  expect(epochsNeverGoDown(rows)).toBe(true)
  expect(rows.map(([seq]) => seq)).toEqual(rows.map((_, i) => i + 1))
}, 60_000)

it('R54: a checkpoint is refused when the session has a newer epoch than the store, and the store fails for good', async () => {
  const store = await openPostgresSession(db.pool, 'fenced')
  await store.takeLease()
  // What a new owner does first: raise the epoch (here without the lock, to reach the check itself).
  await db.pool.query(`UPDATE steerable_sessions SET epoch = epoch + 1 WHERE id = 'fenced'`)
  store.append([{ seq: 1, type: 'turn/start', data: { turn: 1, trigger: { kind: 'retry' } } }])
  const flushed = lastValueFrom(from(store.flush()), { defaultValue: undefined })
  await expect(flushed).rejects.toBeInstanceOf(SessionStoreError)
  await expect(flushed).rejects.toThrow(/another process took the session over/)
  expect(store.failure).toBeInstanceOf(SessionStoreError)
  expect(() => store.append([])).toThrow(store.failure)
  expect(await written('fenced')).toEqual([])
  await store.release()
})
