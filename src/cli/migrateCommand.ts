import { parseArgs } from 'node:util'
import { migrate } from '../postgres.js'
import { loadPg, pgMissing, poolFor } from './loadPg.js'

export const MIGRATE_USAGE = `Usage: steerable migrate [--database-url URL]

Creates the tables of sessions on PostgreSQL (steerable/postgres), or brings them up to date.
Safe to run again, and from several processes at once. Needs the pg package (npm install pg).

Options:
  --database-url URL  the database (or DATABASE_URL), e.g. postgres://user:pass@host:5432/app
  --timeout-ms N      how long one database operation may take (default 10000)
  -h, --help          show this help`

/** `steerable migrate`: returns the exit code (2: bad usage or no pg; 1: the database failed). */
export const runMigrate = async (
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  out: { write(text: string): unknown },
  err: { write(text: string): unknown },
): Promise<number> => {
  let values: { 'database-url'?: string; 'timeout-ms'?: string; help?: boolean }
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        'database-url': { type: 'string' },
        'timeout-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values
  } catch (error) {
    err.write(`${(error as Error).message}\n\n${MIGRATE_USAGE}\n`)
    return 2
  }
  if (values.help) {
    out.write(`${MIGRATE_USAGE}\n`)
    return 0
  }
  const url = values['database-url'] ?? env.DATABASE_URL
  const timeoutMs = values['timeout-ms'] === undefined ? undefined : Number(values['timeout-ms'])
  const problem = !url
    ? 'steerable migrate: give the database with --database-url URL (or DATABASE_URL)'
    : timeoutMs !== undefined && !(timeoutMs > 0 && Number.isFinite(timeoutMs))
      ? `--timeout-ms: expected a number of milliseconds > 0, got ${values['timeout-ms']}`
      : undefined
  if (problem || !url) {
    err.write(`${problem}\n\n${MIGRATE_USAGE}\n`)
    return 2
  }
  const pg = await loadPg()
  if (!pg) {
    err.write(pgMissing('steerable migrate'))
    return 2
  }
  const pool = poolFor(pg, url, 1)
  if (typeof pool === 'string') {
    err.write(`${pool}\n`)
    return 2
  }
  try {
    const { from, to } = await migrate(pool, timeoutMs === undefined ? {} : { timeoutMs })
    out.write(
      from === to ? `schema up to date (version ${to})\n` : `schema migrated from version ${from} to ${to}\n`,
    )
    return 0
  } catch (error) {
    err.write(`steerable migrate: ${(error as Error).message}\n`)
    return 1
  } finally {
    await pool.end().catch(() => {})
  }
}
