/** `steerable migrate` (R53): creates the tables, says so, and is safe to run again. */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
import { runMigrate } from '../../src/cli/migrateCommand.js'
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.drop())

const migrateCli = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  let out = ''
  let err = ''
  const code = await runMigrate(
    argv,
    env,
    { write: (text: string) => (out += text) },
    { write: (text: string) => (err += text) },
  )
  return { code, out, err }
}

it('R53: steerable migrate --database-url creates the tables, then finds them up to date', async () => {
  expect(await migrateCli(['--database-url', db.url])).toEqual({
    code: 0,
    out: 'schema migrated from version 0 to 3\n',
    err: '',
  })
  expect(await migrateCli([], { DATABASE_URL: db.url })).toEqual({
    code: 0,
    out: 'schema up to date (version 3)\n',
    err: '',
  })
  const { rows } = await db.pool.query(`SELECT to_regclass('steerable_events') AS t`)
  expect(rows[0].t).toBe('steerable_events')
})

it('R53: steerable migrate without a database says how to give one (exit 2)', async () => {
  const result = await migrateCli([])
  expect(result.code).toBe(2)
  expect(result.err).toMatch(/give the database with --database-url URL \(or DATABASE_URL\)/)
})

it('R59: steerable migrate against a closed port fails with the cause (exit 1)', async () => {
  const result = await migrateCli([
    '--database-url',
    'postgres://x:y@127.0.0.1:1/none',
    '--timeout-ms',
    '2000',
  ])
  expect(result.code).toBe(1)
  expect(result.err).toMatch(/steerable migrate: PostgreSQL: cannot create its tables .*ECONNREFUSED/)
})

it('R53: the steerable command routes `migrate` to it', async () => {
  const write = process.stdout.write
  let out = ''
  process.stdout.write = ((text: string) => {
    out += text
    return true
  }) as typeof process.stdout.write
  try {
    expect(await main(['migrate', '--help'], {})).toBe(0)
  } finally {
    process.stdout.write = write
  }
  expect(out).toMatch(/^Usage: steerable migrate/)
})
