/**
 * A worker process (for the worker, failover and cluster tests): `createWorker` on DATABASE_URL.
 * Its model answers each request after 20–60 ms, so a SIGKILL can land inside a turn; with
 * `TURN=tool` each turn is two steps (step 1 calls the tool `work`, which takes 10–30 ms; step 2
 * answers), so a kill can also land between a tool call and its result.
 *
 * Prints `ready`, then `drive <session>` each time it takes a session, `driving <n>` whenever the
 * number of sessions it holds changes, `start <session> <turn>` and `end <session> <turn>` around
 * each model request and tool run, and `busy <n>` whenever the number of those in flight changes
 * (a victim with `busy` above 0 is mid-turn). Environment: DATABASE_URL, CONCURRENCY, POOL_MAX
 * (default 12), TURN (`answer` or `tool`), STEP_MS (the shortest model answer, default 20).
 */
import pg from 'pg'
import { defer, finalize, type Observable, timer } from 'rxjs'
import { concatMap, map } from 'rxjs/operators'
import { z } from 'zod'
import type { ModelAdapter, ModelEvent } from '../../../src/index.js'
import { createWorker } from '../../../src/postgres.js'

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_MAX ?? 12),
})
pool.on('error', () => {})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

const write = (line: string) => process.stdout.write(`${line}\n`)
const jitter = (from: number, to: number) => from + Math.floor(Math.random() * (to - from))

let inFlight = 0
let busy = 0
const reportBusy = () => {
  if (inFlight === busy) return
  busy = inFlight
  write(`busy ${busy}`)
}
/** `source`, counted as in flight from subscription until it ends either way. */
const counted = <T>(label: string, source: Observable<T>): Observable<T> =>
  defer(() => {
    inFlight++
    write(`start ${label}`)
    reportBusy()
    return source.pipe(
      finalize(() => {
        inFlight--
        write(`end ${label}`)
        reportBusy()
      }),
    )
  })

const answer: ModelEvent[] = [
  { type: 'text', text: 'ok' },
  { type: 'finish', reason: 'stop' },
]
const callWork: ModelEvent[] = [
  { type: 'tool-call', id: 'call-1', name: 'work', arguments: '{}' },
  { type: 'finish', reason: 'tool-calls' },
]
const stepMs = Number(process.env.STEP_MS ?? 20)
const modelOf =
  (sessionId: string): ModelAdapter =>
  (request) =>
    counted(
      `${sessionId} ${request.turn}`,
      timer(jitter(stepMs, 2 * stepMs + 20)).pipe(
        concatMap(() => (process.env.TURN === 'tool' && request.step === 1 ? callWork : answer)),
      ),
    )
const workOf = (sessionId: string) => ({
  name: 'work',
  description: 'Does some work.',
  parameters: z.object({}),
  execute: (_: unknown, ctx: { readonly turn: number }) =>
    counted(`${sessionId} ${ctx.turn}`, timer(jitter(stepMs / 2, stepMs + 10)).pipe(map(() => 'done'))),
})

const worker = createWorker({
  pool,
  agent: (sessionId) => ({ model: modelOf(sessionId), tools: [workOf(sessionId)] }),
  concurrency: Number(process.env.CONCURRENCY ?? '8'),
  pollMs: 100,
  idleMs: 200,
  onError: (error) => write(`error ${String(error)}`),
})
let seen = new Set<string>()
setInterval(() => {
  for (const id of worker.sessions) if (!seen.has(id)) write(`drive ${id}`)
  if (worker.sessions.size !== seen.size) write(`driving ${worker.sessions.size}`)
  seen = new Set(worker.sessions)
}, 20)
write('ready')
