/**
 * Failover (R57): a worker in a child process (bench/children/workerChild.ts, `createWorker`)
 * drives a session in the middle of a turn, with a followup waiting behind it; it is SIGKILLed,
 * and another worker process resumes the session. Measured from the SIGKILL: the advisory lock of
 * the lease gone from `pg_locks`, the resumed worker's first model request, and the first event
 * the new owner wrote (a higher epoch) arriving in a client's `transcript$`. Repeated for each
 * `pollMs` of the resuming worker; the resuming worker starts a random fraction of `pollMs` before
 * the kill, so its scans fall anywhere in the interval. Run with `npx tsx
 * bench/postgresFailover.ts` (or `npm run bench`); a server of its own, or DATABASE_URL. Prints a
 * table; asserts nothing. Environment: BENCH_PG_FAILOVERS (repetitions per pollMs, default 6),
 * BENCH_PG_FAILOVER_POLL_MS (comma-separated, default `1000,250`; 1000 is createWorker's default).
 */
import pg from 'pg'
import type { Subscription } from 'rxjs'
import { reapChildren } from '../test/support/childProcesses.js'
import {
  benchDatabase,
  lineAfter,
  ms,
  now,
  printTable,
  quantile,
  sleep,
  sorted,
  startWorker,
  until,
  workerProgram,
} from './lib/postgresBench.js'

const { loadPostgres } = await import('./lib/built.js')
const { connectSessions, migrate } = await loadPostgres()

const REPS = Number(process.env.BENCH_PG_FAILOVERS ?? 6)
const POLLS = (process.env.BENCH_PG_FAILOVER_POLL_MS ?? '1000,250').split(',').map((s) => Number(s.trim()))

const db = await benchDatabase('steerable_bench_failover', 8)
await migrate(db.pool)
const program = await workerProgram()
const client = connectSessions(db.pool, { pollMs: 1000 })
// Its own connection, so the lock poll never waits for the pool.
const watcher = new pg.Client({ connectionString: db.url })
await watcher.connect()

type Sample = { lock: number; resumed: number; visible: number }

/** One failover of session `id`: the times from the SIGKILL, in ms. */
const failover = async (id: string, pollMs: number): Promise<Sample> => {
  // The owner hangs in its first model request, so the kill lands mid-turn.
  const owner = await startWorker(program, {
    DATABASE_URL: db.url,
    CONCURRENCY: '1',
    POLL_MS: '100',
    IDLE_MS: '60000',
    STEP_MS: '600000',
  })
  const session = client.session(id)
  const sent = [await session.followup('first'), await session.followup('second')]
  await lineAfter(owner, new RegExp(`^step ${id} 1 `), 0)
  // The owner's lease is the only advisory lock once the last repetition's workers are gone.
  let locks: { pid: number }[] = []
  for (let tries = 0; locks.length !== 1; tries++) {
    if (tries > 0) await sleep(5)
    if (tries > 2_000) throw new Error(`bench: expected one advisory lock, found ${locks.length}`)
    locks = (await watcher.query(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted`)).rows
  }
  const leasePid = Number(locks[0]!.pid)
  const { rows: epochs } = await watcher.query('SELECT epoch FROM steerable_sessions WHERE id = $1', [id])
  const ownerEpoch = Number(epochs[0].epoch)

  const arrivals: { seq: number; at: number }[] = []
  const following: Subscription = session.transcript$.subscribe((event) => {
    arrivals.push({ seq: event.seq, at: now() })
  })
  // Its own model answers at once; it scans every pollMs, from a random phase before the kill.
  const next = await startWorker(program, {
    DATABASE_URL: db.url,
    CONCURRENCY: '1',
    POLL_MS: String(pollMs),
    IDLE_MS: '60000',
  })
  await sleep(Math.random() * pollMs)

  const killed = now()
  owner.signal('SIGKILL')
  for (;;) {
    const { rows } = await watcher.query(
      `SELECT 1 FROM pg_locks WHERE pid = $1 AND locktype = 'advisory' AND granted`,
      [leasePid],
    )
    if (rows.length === 0) break
  }
  const lock = now() - killed
  const resumed = Number((await lineAfter(next, new RegExp(`^step ${id} 1 `), 0)).split(' ')[3]) - killed
  // The first event the new owner wrote, once its first checkpoint committed.
  let firstSeq = Number.NaN
  for (let tries = 0; Number.isNaN(firstSeq); tries++) {
    const { rows } = await watcher.query(
      'SELECT min(seq) AS seq FROM steerable_events WHERE session_id = $1 AND epoch > $2',
      [id, ownerEpoch],
    )
    if (rows[0].seq !== null) firstSeq = Number(rows[0].seq)
    else if (tries > 15_000) throw new Error(`bench: the new owner of ${id} wrote nothing`)
    else await sleep(2)
  }
  await until(() => arrivals.some((a) => a.seq === firstSeq), `event ${firstSeq} of ${id} in transcript$`)
  const visible = arrivals.find((a) => a.seq === firstSeq)!.at - killed
  following.unsubscribe()
  await owner.exit
  // Both followups delivered before the resuming worker goes, so no work is left for the next owner.
  await Promise.all(sent.map((sentId) => session.outcome(sentId)))
  next.signal('SIGTERM')
  await next.exit
  return { lock, resumed, visible }
}

const rows: string[][] = []
try {
  for (const pollMs of POLLS) {
    const samples: Sample[] = []
    for (let rep = 0; rep < REPS; rep++) samples.push(await failover(`failover-${pollMs}-${rep}`, pollMs))
    const cell = (pick: (s: Sample) => number) => {
      const s = sorted(samples.map(pick))
      return `${ms(quantile(s, 0.5))} / ${ms(quantile(s, 1))}`
    }
    rows.push(
      [`pollMs ${pollMs}: the lease's lock gone from pg_locks`, cell((s) => s.lock)],
      [`pollMs ${pollMs}: the other worker's first model request`, cell((s) => s.resumed)],
      [`pollMs ${pollMs}: the new owner's first event in transcript$`, cell((s) => s.visible)],
    )
  }
} finally {
  await reapChildren()
  program.remove()
  await watcher.end()
  await client.close()
  await db.close()
}

console.log(`PostgreSQL failover: SIGKILL of the owning worker to … (node ${process.version}; ${REPS} each)`)
printTable(['from the SIGKILL of the owner to …', `p50 / max of ${REPS}`], rows)
console.log(
  [
    'Both workers are child processes (createWorker, concurrency 1); the killed one was mid-turn with a',
    "followup waiting; the resuming one's model answers at once, so its first checkpoint (at turn/end, R36)",
    "follows its first model request by one turn. The lock dies with the killed process's connection;",
    "what remains is the resuming worker's next scan (every pollMs) and opening the session.",
    db.serverNote,
  ].join('\n'),
)
