/**
 * A worker process (for the worker and failover tests): `createWorker` on DATABASE_URL, with a
 * model that answers each request after 20–60 ms, so a SIGKILL can land inside a turn. Prints
 * `ready`, then `drive <session>` each time it takes a session. Environment: DATABASE_URL,
 * CONCURRENCY.
 */
import pg from 'pg'
import { timer } from 'rxjs'
import { concatMap } from 'rxjs/operators'
import type { ModelEvent } from '../../../src/index.js'
import { createWorker } from '../../../src/postgres.js'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 12 })
pool.on('error', () => {})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

const model = () =>
  timer(20 + Math.floor(Math.random() * 40)).pipe(
    concatMap((): ModelEvent[] => [
      { type: 'text', text: 'ok' },
      { type: 'finish', reason: 'stop' },
    ]),
  )
const worker = createWorker({
  pool,
  agent: () => ({ model }),
  concurrency: Number(process.env.CONCURRENCY ?? '8'),
  pollMs: 100,
  idleMs: 200,
  onError: (error) => process.stdout.write(`error ${String(error)}\n`),
})
let seen = new Set<string>()
setInterval(() => {
  for (const id of worker.sessions) if (!seen.has(id)) process.stdout.write(`drive ${id}\n`)
  seen = new Set(worker.sessions)
}, 20)
process.stdout.write('ready\n')
