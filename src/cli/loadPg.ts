import { redactedMark, redactURL } from '../adapterKit/redact.js'
import type { PostgresPool } from '../postgres.js'

/** The parts of a `pg.Pool` the commands use. */
export type Pool = PostgresPool & { end(): Promise<void>; on(event: 'error', listener: () => void): unknown }
type PgModule = { Pool: new (config: { connectionString: string; max: number }) => Pool }

/** What to say when `pg` is missing (`command`: the command that needs it). */
export const pgMissing = (command: string): string =>
  `${command}: the pg package is not installed; install it with npm install pg\n`

/**
 * Loads the app's `pg` (an optional peer dependency). The specifier is a variable so bundlers
 * leave it to run time: a `steerable` without pg installed works for everything but the
 * commands that need a database.
 */
export const loadPg = async (): Promise<PgModule | undefined> => {
  const name = 'pg'
  try {
    const loaded = (await import(name)) as { default?: PgModule } & PgModule
    return loaded.default ?? loaded
  } catch {
    return undefined
  }
}

/**
 * `url` as a refusal may quote it: without its userinfo and query values (`redactURL`). Text
 * without `scheme://` (`user:password@host/db`) has no userinfo `redactURL` can tell, so what
 * comes before its last `@` is left out as well.
 */
const quotable = (url: string): string => {
  const shown = redactURL(url)
  const at = shown.lastIndexOf('@')
  return shown === url && at >= 0 ? `${redactedMark}${shown.slice(at)}` : shown
}

/**
 * A pool on `url` (its own connections; a connection the server ends must not crash the app),
 * or the problem with the URL: only `postgres://` and `postgresql://` URLs are taken, so a typo
 * is not read as a host name. The refusal quotes the URL without its password.
 */
export const poolFor = (pg: PgModule, url: string, max: number): Pool | string => {
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch {
    parsed = undefined
  }
  if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:'))
    return `--database-url: expected a URL like postgres://user:password@host:5432/database, got ${JSON.stringify(quotable(url))}`
  const pool = new pg.Pool({ connectionString: url, max })
  pool.on('error', () => {})
  return pool
}
