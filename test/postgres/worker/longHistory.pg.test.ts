/**
 * R57: a worker finds waiting work however long the histories are. A session with 2,000 delivered
 * remote followups (12,000 events, 4,000 journal rows) must not slow the scan for waiting work
 * past its timeout: the worker still serves a new followup there, and in any other session.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { connectSessions, createWorker, migrate } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { writeDeliveredHistory } from '../../support/postgresHistory.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  await writeDeliveredHistory((text, values) => db.pool.query(text, values), 'long-history', 2_000)
}, 60_000)
afterAll(() => db.drop())

it('R57: after 2,000 delivered remote followups in one session the worker still serves new followups', async () => {
  let failed: (error: unknown) => void = () => {}
  // A scan that fails (it timed out) fails the test at once instead of at the test's timeout.
  const scanFailed = new Promise<never>((_, reject) => (failed = reject))
  const worker = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel(['served']) }),
    concurrency: 2,
    pollMs: 200,
    idleMs: 100,
    timeoutMs: 3_000,
    onError: (error) => failed(error),
  })
  const client = connectSessions(db.pool, { pollMs: 100 })
  try {
    const long = client.session('long-history')
    const fresh = client.session('fresh-beside-long')
    const [a, b] = await Promise.all([long.followup('one more'), fresh.followup('hello')])
    const outcomes = await Promise.race([Promise.all([long.outcome(a), fresh.outcome(b)]), scanFailed])
    expect(outcomes[0]).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 2_001 })
    expect(outcomes[1]).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 1 })
  } finally {
    await worker.close()
    await client.close()
  }
}, 20_000)
