/**
 * Remote sends into sessions that a worker drives (R55, R57), with the worker in a child process
 * (bench/children/workerChild.ts, `createWorker`): sends per second from one client into one
 * and into eight driven sessions, beside the same sends into sessions nobody drives, in the same
 * run; and the latency of a remote `steer` into a running turn, to the model request that carries
 * it and to its `steering/message` in the client's `transcript$`. Run with `npx tsx
 * bench/postgresRemote.ts` (or `npm run bench`); a server of its own, or DATABASE_URL. Prints a
 * table; asserts nothing. Environment: BENCH_PG_REMOTE_SENDS (sends per case, default 400),
 * BENCH_PG_STEER_TURNS (turns steered, default 20), BENCH_PG_STEERS_PER_TURN (default 5),
 * BENCH_PG_STEP_MS (how long each model request of the steered turn takes, default 25),
 * BENCH_PG_STEPS (tool-call steps of the steered turn, default 20).
 */
import type { Subscription } from 'rxjs'
import type { AgentMessageId } from '../src/index.js'
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

// The client side runs the build (dist/), as the other benchmarks do; the worker child is bundled
// from src/ by esbuild, as the build is.
const { loadPostgres } = await import('./lib/built.js')
const { connectSessions, migrate } = await loadPostgres()

const SENDS = Number(process.env.BENCH_PG_REMOTE_SENDS ?? 400)
const STEER_TURNS = Number(process.env.BENCH_PG_STEER_TURNS ?? 20)
const STEERS = Number(process.env.BENCH_PG_STEERS_PER_TURN ?? 5)
const STEP_MS = Number(process.env.BENCH_PG_STEP_MS ?? 25)
const STEPS = Number(process.env.BENCH_PG_STEPS ?? 20)

const db = await benchDatabase('steerable_bench_remote', 8)
await migrate(db.pool)
const program = await workerProgram()
const client = connectSessions(db.pool, { pollMs: 1000 })
const following: Subscription[] = []

/** Ids seen on `user/message` / `steering/message` in each session's transcript, with the time. */
const arrived = new Map<string, number>()
const follow = (sessionId: string) => {
  following.push(
    client.session(sessionId).transcript$.subscribe((event) => {
      if ((event.type === 'user/message' || event.type === 'steering/message') && event.data.id)
        arrived.set(event.data.id, now())
    }),
  )
}

/** `SENDS` followups spread over `sessions`, all at once; sends/s and (when driven) delivered/s. */
const sendInto = async (sessions: readonly string[], driven: boolean) => {
  const t0 = now()
  const ids: AgentMessageId[] = await Promise.all(
    Array.from({ length: SENDS }, (_, i) => client.session(sessions[i % sessions.length]!).followup(`m${i}`)),
  )
  const stored = now() - t0
  if (!driven) return { sendsPerSecond: (SENDS / stored) * 1000, deliveredPerSecond: Number.NaN }
  await until(() => ids.every((id) => arrived.has(id)), `delivery of ${SENDS} sends`, 120_000)
  const delivered = Math.max(...ids.map((id) => arrived.get(id)!)) - t0
  return { sendsPerSecond: (SENDS / stored) * 1000, deliveredPerSecond: (SENDS / delivered) * 1000 }
}

const rows: string[][] = []
try {
  // Sends into sessions a worker drives, its model answering at once (a turn per followup).
  const fast = await startWorker(program, {
    DATABASE_URL: db.url,
    CONCURRENCY: '9',
    POLL_MS: '100',
    IDLE_MS: '60000',
  })
  const one = ['driven-0']
  const eight = Array.from({ length: 8 }, (_, i) => `driven8-${i}`)
  for (const s of [...one, ...eight]) follow(s)
  // Each session is driven before the timed sends (the worker found it and holds its lease).
  const warm = await Promise.all([...one, ...eight].map((s) => client.session(s).followup('warm')))
  await until(() => warm.every((id) => arrived.has(id)), 'the warm-up sends', 60_000).catch((error) => {
    console.error(fast.lines.join('\n'))
    throw error
  })
  const driven1 = await sendInto(one, true)
  const driven8 = await sendInto(eight, true)
  fast.signal('SIGTERM')
  await fast.exit
  // Steers into a running turn: STEPS tool-call steps of STEP_MS each, STEERS steers per turn.
  const slow = await startWorker(program, {
    DATABASE_URL: db.url,
    CONCURRENCY: '1',
    POLL_MS: '100',
    IDLE_MS: '60000',
    STEPS: String(STEPS),
    STEP_MS: String(STEP_MS),
  })
  const session = client.session('steered')
  follow('steered')
  const stored: number[] = []
  const landed: number[] = []
  const visible: number[] = []
  const turnMs: number[] = []
  for (let turn = 1; turn <= STEER_TURNS; turn++) {
    const from = slow.lines.length
    const prompt = await session.followup(`go-${turn}`)
    const started = Number((await lineAfter(slow, /^step steered 1 /, from)).split(' ')[3])
    const sent: { id: AgentMessageId; text: string; at: number }[] = []
    for (let s = 0; s < STEERS; s++) {
      await sleep(Math.random() * STEP_MS * 1.5)
      const text = `steer-${turn}-${s}`
      const at = now()
      const id = await session.steer(text)
      stored.push(now() - at)
      sent.push({ id, text, at })
    }
    await until(
      () => arrived.has(prompt) && sent.every((s) => arrived.has(s.id)),
      `the steers of turn ${turn} in the transcript`,
    )
    const last = Number(
      (await lineAfter(slow, new RegExp(`^step steered ${STEPS + 1} `), from)).split(' ')[3],
    )
    turnMs.push(last + STEP_MS - started)
    for (const s of sent) {
      const saw = slow.lines.slice(from).find((l) => l.startsWith(`saw ${s.text} `))
      if (saw) landed.push(Number(saw.split(' ')[2]) - s.at)
      visible.push(arrived.get(s.id)! - s.at)
    }
  }
  slow.signal('SIGTERM')
  await slow.exit
  // Sends into sessions nobody drives (the journal rows alone), once no worker runs to take them.
  const idle1 = await sendInto(['idle-0'], false)
  const idle8 = await sendInto(
    Array.from({ length: 8 }, (_, i) => `idle8-${i}`),
    false,
  )

  const rate = (n: number) => (Number.isFinite(n) ? Math.round(n).toString() : '—')
  rows.push(
    ['followup() sends/s, one client → 1 session', rate(idle1.sendsPerSecond), rate(driven1.sendsPerSecond)],
    ['  delivered/s (a turn each, into the transcript)', '—', rate(driven1.deliveredPerSecond)],
    ['followup() sends/s, one client → 8 sessions', rate(idle8.sendsPerSecond), rate(driven8.sendsPerSecond)],
    ['  delivered/s (a turn each, into the transcript)', '—', rate(driven8.deliveredPerSecond)],
  )

  const q = (xs: number[]) => {
    const s = sorted(xs)
    return `${ms(quantile(s, 0.5))} / ${ms(quantile(s, 0.99))}`
  }
  const n = stored.length
  rows.push(
    [`steer() resolves (stored in the journal), p50 / p99 of ${n}`, '—', q(stored)],
    [`steer → the model request that carries it, p50 / p99 of ${landed.length}`, '—', q(landed)],
    [`steer → its steering/message in transcript$, p50 / p99 of ${n}`, '—', q(visible)],
    [
      `  the steered turn: ${STEPS + 1} model requests of ${STEP_MS} ms, p50`,
      '—',
      ms(quantile(sorted(turnMs), 0.5)),
    ],
  )
} finally {
  for (const s of following) s.unsubscribe()
  await reapChildren()
  program.remove()
  await client.close()
  await db.close()
}

console.log(
  `PostgreSQL remote sends and steers (node ${process.version}; ${SENDS} sends per case; ` +
    `${STEER_TURNS} turns × ${STEERS} steers)`,
)
printTable(['measure', 'nobody drives it', 'a worker drives it'], rows)
console.log(
  [
    'The worker runs in a child process (createWorker, concurrency 9 for the sends, 1 for the steers, pollMs',
    '100, idleMs 60 s so it keeps the sessions); its model answers at once for the sends. A steer lands at the',
    "next step boundary (R4), so 'the model request that carries it' includes waiting out the step in",
    `progress (0–${STEP_MS} ms); the transcript shows it at the turn's checkpoint, at turn/end (R36).`,
    db.serverNote,
  ].join('\n'),
)
