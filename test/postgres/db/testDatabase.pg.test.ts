import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

it('the run has a real PostgreSQL server with advisory locks and LISTEN/NOTIFY', async () => {
  const { rows } = await db.pool.query<{ lock: boolean; version: string }>(
    'select pg_try_advisory_lock(1) as lock, current_setting($1) as version',
    ['server_version_num'],
  )
  expect(rows[0]?.lock).toBe(true)
  expect(Number(rows[0]?.version)).toBeGreaterThanOrEqual(140000)
})
