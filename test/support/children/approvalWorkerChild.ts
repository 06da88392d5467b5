/**
 * A worker process for the approval tests (R65): `createWorker` on DATABASE_URL whose model calls
 * the tool `deploy` in the first step of each turn (call id `deploy-<turn>`) and answers `done`
 * after. `deploy` needs approval (R61).
 *
 * Prints `ready`, then `drive <session>` each time it takes a session, `execute <session> <callId>`
 * each time `deploy` runs (a test counts these across processes: V9), and `error <what>` for what
 * the worker reports. Environment: DATABASE_URL.
 */
import pg from 'pg'
import { z } from 'zod'
import { defineTool, type ModelAdapter, type ModelEvent } from '../../../src/index.js'
import { createWorker } from '../../../src/postgres.js'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 })
pool.on('error', () => {})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

const write = (line: string) => process.stdout.write(`${line}\n`)

const model: ModelAdapter = (request): ModelEvent[] =>
  request.step === 1
    ? [
        { type: 'tool-call', id: `deploy-${request.turn}`, name: 'deploy', arguments: '{"target":"prod"}' },
        { type: 'finish', reason: 'tool-calls' },
      ]
    : [
        { type: 'text', text: 'done' },
        { type: 'finish', reason: 'stop' },
      ]

const deployOf = (sessionId: string) =>
  defineTool({
    name: 'deploy',
    description: 'Deploys.',
    parameters: z.object({ target: z.string() }),
    needsApproval: true,
    execute: (_args, ctx) => {
      write(`execute ${sessionId} deploy-${ctx.turn}`)
      return 'deployed'
    },
  })

const worker = createWorker({
  pool,
  agent: (sessionId) => ({ model, tools: [deployOf(sessionId)] }),
  concurrency: 4,
  pollMs: 100,
  idleMs: 200,
  onError: (error) => write(`error ${String(error)}`),
})
const seen = new Set<string>()
setInterval(() => {
  for (const id of worker.sessions) if (!seen.has(id)) write(`drive ${id}`)
  seen.clear()
  for (const id of worker.sessions) seen.add(id)
}, 20)
write('ready')
