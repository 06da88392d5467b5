/**
 * A process that owns one session on PostgreSQL and writes checkpoints into it (for the lease
 * tests). Environment: DATABASE_URL, SESSION, NAME (its application_name), WAIT=1 to keep trying
 * for the lease (else one try), WRITES (checkpoints to write; default: until stopped).
 *
 * Prints `locked <message>`, `owner <epoch> <events loaded>`, `wrote <seq>` after each committed
 * checkpoint, `refused <error name> <message>` when a checkpoint is refused (then it exits), and
 * `done` after its last checkpoint (then it holds the lease until killed).
 */
import pg from 'pg'
import type { SessionEvent } from '../../../src/index.js'
import { openPostgresSession } from '../../../src/postgres.js'

const env = (name: string) => process.env[name] ?? ''
const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), application_name: env('NAME'), max: 3 })
pool.on('error', () => {})
const say = (line: string) => process.stdout.write(`${line}\n`)
// The test that started it closes stdin when it ends (or dies): so does this process.
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

const store = await openPostgresSession(pool, env('SESSION'), { timeoutMs: 5_000 })
for (;;) {
  try {
    await store.takeLease()
    break
  } catch (error) {
    if ((error as Error).name !== 'SessionLockedError') throw error
    if (env('WAIT') !== '1') {
      say(`locked ${(error as Error).message}`)
      process.exit(0)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
say(`owner ${store.epoch} ${store.load().length}`)
const writes = env('WRITES') === '' ? Number.POSITIVE_INFINITY : Number(env('WRITES'))
for (let i = 0; i < writes; i++) {
  const seq = store.load().length + 1
  const event: SessionEvent = { seq, type: 'turn/start', data: { turn: seq, trigger: { kind: 'retry' } } }
  try {
    store.append([event])
    await new Promise<void>((resolve, reject) => {
      const flushing = store.flush()
      if ('subscribe' in flushing) flushing.subscribe({ complete: resolve, error: reject })
      else resolve()
    })
  } catch (error) {
    say(`refused ${(error as Error).name} ${(error as Error).message}`)
    process.exit(0)
  }
  say(`wrote ${seq}`)
  await new Promise((resolve) => setTimeout(resolve, 20))
}
say('done')
setInterval(() => {}, 60_000)
