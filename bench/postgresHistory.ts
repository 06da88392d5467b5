/**
 * Sessions on PostgreSQL with long histories (R53, R57): how long a worker's scan for waiting work
 * takes beside sessions of 1,000, 10,000 and 100,000 delivered remote followups (each one send,
 * one `add` and six events, written straight into the tables by test/support/postgresHistory.ts),
 * and how long opening a session takes against its history: the open (read and check everything),
 * the first lease (which compacts the journal), the next one (nothing left to compact) and the
 * open after, with the journal's rows before and after. The scan the pending flag replaced (migration step 3) is
 * timed once, at the shortest history, for comparison. Run with `npx tsx bench/postgresHistory.ts`
 * (or `npm run bench`); BENCH_PG_SCAN and BENCH_PG_OPEN set the history lengths (comma-separated).
 * Prints a table; asserts nothing.
 */
import { performance } from 'node:perf_hooks'
import { sessionsWithWork } from '../src/postgres/worker/sessionsWithWork.js'
import { writeDeliveredHistory } from '../test/support/postgresHistory.js'
import { loadPostgres } from './lib/built.js'
import { benchDatabase, ms, printTable, quantile, sorted } from './lib/postgresBench.js'

const { connectSessions, migrate, openPostgresSession } = await loadPostgres()
const lengths = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').map(Number)
const SCAN = lengths('BENCH_PG_SCAN', '1000,10000,100000')
const OPEN = lengths('BENCH_PG_OPEN', '1000,5000,20000')

const db = await benchDatabase('steerable_bench_history')
await migrate(db.pool)
const query = (text: string, values?: unknown[]) => db.pool.query(text, values)
const timed = async (run: () => Promise<unknown>) => {
  const t0 = performance.now()
  await run()
  return performance.now() - t0
}
const median = async (runs: number, run: () => Promise<unknown>) => {
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push(await timed(run))
  return quantile(sorted(times), 0.5)
}
const journalRows = async (sessionId: string) =>
  Number(
    (await query('SELECT count(*) AS n FROM steerable_inbox WHERE session_id = $1', [sessionId])).rows[0]?.n,
  )

/** The scan before migration step 3: for every send or add, lookups through the whole history. */
const OLD_SCAN = `SELECT s.id FROM steerable_sessions s WHERE EXISTS (
  SELECT 1 FROM steerable_inbox i WHERE i.session_id = s.id AND i.message_id IS NOT NULL
    AND ((i.op = 'send' AND NOT EXISTS (SELECT 1 FROM steerable_inbox a
          WHERE a.session_id = i.session_id AND a.op = 'add' AND a.message_id = i.message_id))
      OR (i.op = 'add' AND i.record->>'placement' = 'queued'))
    AND NOT EXISTS (SELECT 1 FROM steerable_inbox d
      WHERE d.session_id = i.session_id AND d.op = 'settle' AND d.record->>'id' = i.message_id)
    AND NOT EXISTS (SELECT 1 FROM steerable_events e
      WHERE e.session_id = i.session_id AND e.event->'data'->>'id' = i.message_id))
  OR EXISTS (SELECT 1 FROM steerable_inbox r WHERE r.session_id = s.id AND r.op LIKE 'remote-%'
    AND r.seq > s.remote_applied)
  ORDER BY s.updated_at LIMIT 8`

const rows: string[][] = []
// One session with a send waiting, so that every scan finds something.
const client = connectSessions(db.pool)
await client.session('waiting').followup('is anyone there?')
await client.close()
let written = 0
for (const length of SCAN) {
  await writeDeliveredHistory(query, `scan-${length}`, length)
  written += length
  const scan = await median(5, () => sessionsWithWork(query, 8))
  rows.push([`scan for waiting work, beside ${length.toLocaleString('en')} delivered requests`, ms(scan), ''])
  if (length === SCAN[0])
    rows.push([
      `  the scan before the pending flag, ${length.toLocaleString('en')}`,
      ms(await median(1, () => query(OLD_SCAN))),
      '',
    ])
}
rows.push([`  (${written.toLocaleString('en')} delivered requests in the database)`, '', ''])
for (const length of OPEN) {
  const id = `open-${length}`
  await writeDeliveredHistory(query, id, length)
  const before = await journalRows(id)
  const open = await median(3, () => openPostgresSession(db.pool, id))
  const store = await openPostgresSession(db.pool, id)
  const compacting = await timed(() => store.takeLease())
  await store.release()
  const after = await journalRows(id)
  const again = await openPostgresSession(db.pool, id)
  const lease = await timed(() => again.takeLease())
  await again.release()
  const reopen = await median(3, () => openPostgresSession(db.pool, id))
  const label = `${length.toLocaleString('en')} turns (${(6 * length).toLocaleString('en')} events)`
  rows.push([`open a session of ${label}`, ms(open), ''])
  rows.push([`  first lease: compacts the journal`, ms(compacting), `${before} → ${after} journal rows`])
  rows.push([`  next lease: nothing to compact`, ms(lease), ''])
  rows.push([`  open again, journal compacted`, ms(reopen), ''])
}
console.log(`PostgreSQL long-history benchmark (node ${process.version})`)
printTable(['measure', 'time', 'note'], rows)
console.log(db.serverNote)
await db.close()
