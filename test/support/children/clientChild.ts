/**
 * A client process of the cluster test: `connectSessions` on DATABASE_URL, then OPS operations
 * drawn from the table in test/postgres/worker/cluster/operations.ts with a seeded random
 * (SEED), each into one of SESSIONS (comma-separated; half the time the previous operation's),
 * PACE_MS apart on average, without waiting for the earlier ones.
 * An operation that needs a target picks one of this client's earlier sends to that session, so
 * the mix depends on the seed alone. Prints `op <json record>` as each operation resolves (or
 * with `error` as it fails), then `done`. Environment: DATABASE_URL, CLIENT, SESSIONS, SEED, OPS,
 * PACE_MS.
 */
import pg from 'pg'
import type { AgentMessageId } from '../../../src/index.js'
import { connectSessions } from '../../../src/postgres.js'
import { OPERATIONS, type OperationRecord, pickOperation } from '../../postgres/worker/cluster/operations.js'
import { mulberry32 } from '../mulberry32.js'

const env = (name: string) => process.env[name] ?? ''
const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 4 })
pool.on('error', () => {})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

const client = Number(env('CLIENT'))
const sessions = env('SESSIONS').split(',')
const random = mulberry32(Number(env('SEED')))
const pace = Number(env('PACE_MS'))
const remote = connectSessions(pool, { pollMs: 200 })
const write = (line: string) => process.stdout.write(`${line}\n`)
/** Per session, the ids of this client's sends there, as promises in the order they were made. */
const sent = new Map<string, Promise<AgentMessageId | undefined>[]>()
const sends = OPERATIONS.filter((o) => o.effect === 'send')

let lastSession: string | undefined
const operate = (n: number): Promise<unknown> => {
  // Half the time the session of the previous operation: a steer then reaches a turn that runs.
  const stay = random() < 0.5
  const sessionId = (stay && lastSession) || sessions[Math.floor(random() * sessions.length)]!
  lastSession = sessionId
  const earlier = sent.get(sessionId) ?? []
  const picked = pickOperation(OPERATIONS, random)
  // With nothing to target yet, a targeted operation becomes a send.
  const needsTarget = picked.effect !== 'send' && picked.effect !== 'cancel'
  const operation = needsTarget && earlier.length === 0 ? pickOperation(sends, random) : picked
  // Recent sends are the ones most likely to be still waiting.
  const target = earlier[Math.max(0, earlier.length - 1 - Math.floor(random() * 4))]
  const roll = random()
  const text = `c${client}:${n}:${operation.kind}`
  const base = { client, n, session: sessionId, kind: operation.kind, effect: operation.effect, text }
  const session = remote.session(sessionId)
  const done = (async (): Promise<AgentMessageId | undefined> => {
    const on = needsTarget && operation === picked ? await target : undefined
    if (needsTarget && operation === picked && on === undefined) return undefined
    try {
      const result = await operation.run({ session, text, target: on as AgentMessageId, roll })
      const id = operation.effect === 'send' ? (result as AgentMessageId) : undefined
      const record: OperationRecord = { ...base, ...(id ? { id } : {}), ...(on ? { target: on } : {}) }
      write(`op ${JSON.stringify(record)}`)
      return id
    } catch (error) {
      write(`op ${JSON.stringify({ ...base, error: String(error) } satisfies OperationRecord)}`)
      return undefined
    }
  })()
  if (operation.effect === 'send') sent.set(sessionId, [...earlier, done])
  return done
}

const pending: Promise<unknown>[] = []
const ops = Number(env('OPS'))
for (let n = 0; n < ops; n++) {
  pending.push(operate(n))
  await new Promise((resolve) => setTimeout(resolve, random() * 2 * pace))
}
await Promise.all(pending)
write('done')
await remote.close()
await pool.end()
process.exit(0)
