/**
 * A worker process for the PostgreSQL benchmarks: `createWorker` on DATABASE_URL with a model
 * whose turn takes STEPS tool-call steps and then answers, each model request taking STEP_MS.
 * Prints `ready`; at each model request `step <session> <n> <time>` (n counts the steps of the
 * turn from 1); and the first time a request carries a steering text (one starting `steer-`),
 * `saw <text> <time>`. Times are `performance.timeOrigin + performance.now()` in ms, a clock the
 * benchmark process shares. Environment: DATABASE_URL, CONCURRENCY (8), POLL_MS (1000), IDLE_MS
 * (1000), STEPS (0), STEP_MS (0). It exits when its stdin closes.
 */
import pg from 'pg'
import { type Observable, of, timer } from 'rxjs'
import { concatMap } from 'rxjs/operators'
import { z } from 'zod'
import type { Message, ModelEvent, ModelRequest, ToolDefinition } from '../../src/index.js'
import { createWorker } from '../../src/postgres.js'

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const concurrency = env('CONCURRENCY', 8)
const steps = env('STEPS', 0)
const stepMs = env('STEP_MS', 0)
const now = () => performance.timeOrigin + performance.now()

// Each driven session holds its lease's connection; the sessions share one LISTEN connection,
// and reads, scans and publishing borrow more for a moment.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: concurrency + 4 })
pool.on('error', () => {})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

const textOf = (message: Message): string =>
  Array.isArray(message.content)
    ? message.content.map((b: { type: string; text?: string }) => (b.type === 'text' ? b.text : '')).join('')
    : String(message.content)

const tick: ToolDefinition = {
  name: 'tick',
  description: 'Returns at once.',
  parameters: z.object({}),
  execute: () => 'ok',
}

const modelFor = (sessionId: string) => {
  const seen = new Set<string>()
  return (request: ModelRequest): Observable<ModelEvent> => {
    const at = now()
    const messages = request.messages
    // The steps of this turn so far: assistant messages since its prompt (steering is not one).
    let prompt = messages.length - 1
    while (prompt >= 0) {
      const m = messages[prompt]!
      if (m.role === 'user' && !textOf(m).startsWith('steer-')) break
      prompt--
    }
    const step = messages.slice(prompt + 1).filter((m) => m.role === 'assistant').length + 1
    const lines = [`step ${sessionId} ${step} ${at}`]
    for (const m of messages) {
      const text = m.role === 'user' ? textOf(m) : ''
      if (text.startsWith('steer-') && !seen.has(text)) {
        seen.add(text)
        lines.push(`saw ${text} ${at}`)
      }
    }
    process.stdout.write(`${lines.join('\n')}\n`)
    const events: ModelEvent[] =
      step <= steps
        ? [
            { type: 'tool-call', id: `t${step}`, name: 'tick', arguments: '{}' },
            { type: 'finish', reason: 'tool-calls' },
          ]
        : [
            { type: 'text', text: 'done' },
            { type: 'finish', reason: 'stop' },
          ]
    return stepMs > 0 ? timer(stepMs).pipe(concatMap(() => events)) : of(...events)
  }
}

createWorker({
  pool,
  agent: (sessionId) => ({ model: modelFor(sessionId), tools: [tick] }),
  concurrency,
  pollMs: env('POLL_MS', 1000),
  idleMs: env('IDLE_MS', 1000),
  onError: (error) => process.stdout.write(`error ${String(error)}\n`),
})
process.stdout.write('ready\n')
