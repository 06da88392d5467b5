/**
 * A worker process for the remote interrupt and tool cancel tests (R68, R71): `createWorker` on
 * DATABASE_URL. Its model, in step 1 of turn 1, streams `partial ` and then waits until its request
 * is aborted (only an interrupting steer ends that step); in step 1 of turn 2 it calls `slow`
 * (call id `slow-2`), which runs until its signal aborts; every other step answers `ok`.
 *
 * Prints `ready`, `aborted <session> <callId>` when a `slow` call's signal aborts, and
 * `error <what>` for what the worker reports. Environment: DATABASE_URL.
 */
import pg from 'pg'
import { Observable } from 'rxjs'
import { z } from 'zod'
import { defineTool, type ModelAdapter, type ModelEvent } from '../../../src/index.js'
import { createWorker } from '../../../src/postgres.js'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 })
pool.on('error', () => {})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

const write = (line: string) => process.stdout.write(`${line}\n`)

const model: ModelAdapter = (request) => {
  if (request.step === 1 && request.turn === 1)
    return new Observable<ModelEvent>((subscriber) => {
      subscriber.next({ type: 'text', text: 'partial ' })
      request.signal.addEventListener('abort', () => subscriber.error(request.signal.reason))
    })
  if (request.step === 1 && request.turn === 2)
    return [
      { type: 'tool-call', id: 'slow-2', name: 'slow', arguments: '{}' },
      { type: 'finish', reason: 'tool-calls' },
    ]
  return [
    { type: 'text', text: 'ok' },
    { type: 'finish', reason: 'stop' },
  ]
}

const slowOf = (sessionId: string) =>
  defineTool({
    name: 'slow',
    description: 'Runs until cancelled.',
    parameters: z.object({}),
    execute: (_args, ctx) =>
      new Promise<string>((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          write(`aborted ${sessionId} ${ctx.callId}`)
          resolve('stopped')
        }),
      ),
  })

createWorker({
  pool,
  agent: (sessionId) => ({ model, tools: [slowOf(sessionId)] }),
  concurrency: 4,
  pollMs: 100,
  idleMs: 60_000,
  onError: (error) => write(`error ${String(error)}`),
})
write('ready')
