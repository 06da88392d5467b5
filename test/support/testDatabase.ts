/**
 * A database of its own for one test file, on the run's PostgreSQL server (see
 * postgresGlobalSetup.ts): created fresh, dropped afterwards (with whatever is still connected).
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'

export type TestDatabase = {
  /** Its URL, for child processes and for pools of their own. */
  readonly url: string
  /** A pool on it, ended by `drop`. */
  readonly pool: pg.Pool
  drop(): Promise<void>
}

/** The run's server, provided only to the `postgres` project (vitest.config.ts). */
const adminUrl = (): string => {
  const url = inject('postgresAdminUrl')
  if (url === undefined)
    throw new Error('no PostgreSQL server in this run: name a test file that needs one *.pg.test.ts')
  return url
}

const withAdmin = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: adminUrl() })
  // Its errors reach the awaited query; one between queries (a server restart) must not crash the run.
  client.on('error', () => {})
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

export const createTestDatabase = async (): Promise<TestDatabase> => {
  const name = `steerable_test_${randomBytes(6).toString('hex')}`
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`))
  const url = new URL(adminUrl())
  url.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: url.href, max: 8 })
  // A connection the server ends (a test that terminates backends) must not crash the run.
  pool.on('error', () => {})
  // Dropping the database ends every connection to it, checked out ones too (a LISTEN a test
  // still holds, a lock a failed test left): the end they report then is expected. Before the
  // drop an error nobody else listens to still fails the run, as it would without this listener.
  let dropping = false
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      if (!dropping && client.listenerCount('error') === 1) throw error
    })
  })
  return {
    url: url.href,
    pool,
    drop: async () => {
      // Dropped first (ending whatever is still connected), so a connection a failed test left
      // checked out cannot hold pool.end() forever.
      dropping = true
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
      await Promise.race([pool.end(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())])
    },
  }
}
