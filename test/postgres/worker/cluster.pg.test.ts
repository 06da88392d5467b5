/**
 * The cluster test (R57, R52, R54, R55, R58): three worker processes serve fifty sessions while
 * four client processes send a seeded random mix of followups, steers, injects, sends the owner
 * refuses, edits (remove, replace, move, promote) and cancels; the owner of busy sessions is
 * SIGKILLed mid-turn several times. Afterwards every id a client got back is delivered or settled
 * exactly once cluster-wide, per-session order from one client holds where the contract keeps it,
 * no two processes appended to one session at once, and every session opens and replays into the
 * same `session.messages()` (see cluster/). `npm run soak:cluster` runs the same harness for
 * longer. CLUSTER_SEED replays a client mix.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { migrate } from '../../../src/postgres.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'
import { checkCluster, formatCounts } from './cluster/checkCluster.js'
import { bundleClusterPrograms, type ClusterPrograms, runCluster } from './cluster/runCluster.js'

let db: TestDatabase
let programs: ClusterPrograms
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  programs = await bundleClusterPrograms()
}, 60_000)
afterAll(async () => {
  programs.worker.remove()
  programs.client.remove()
  await db.drop()
})

it('R57, R52, R54, R55, R58: 3 workers, 50 sessions, 4 clients, SIGKILLs mid-turn: every id once, order, fencing, replay', async () => {
  const seed = Number(process.env.CLUSTER_SEED ?? Math.floor(Math.random() * 2 ** 31))
  const run = await runCluster(programs, {
    url: db.url,
    pool: db.pool,
    seed,
    prefix: 'cluster',
    sessions: 50,
    workers: 3,
    clients: 4,
    operations: 120,
    paceMs: 120,
    killEveryMs: 1_200,
    stepMs: 80,
    settleMs: 60_000,
    ...(process.env.CLUSTER_LOG
      ? { log: (line: string) => console.log(`${new Date().toISOString()} ${line}`) }
      : {}),
  })
  const { violations, counts } = await checkCluster(db.pool, 'cluster', run)
  const report = `seed ${seed} (CLUSTER_SEED=${seed} replays the clients' mix)\n${formatCounts(counts)}`
  if (process.env.CLUSTER_LOG) console.log(report)
  expect(violations, report).toStrictEqual([])
  // It did what it says: kills landed mid-turn and cut turns off, ids were delivered every way,
  // refused, and discarded (by a remove or a cancel).
  expect(counts.kills, report).toBeGreaterThanOrEqual(3)
  expect(counts.killsMidTurn, report).toBeGreaterThanOrEqual(2)
  expect(counts.cutTurns, report).toBeGreaterThanOrEqual(1)
  expect(counts.delivered.prompt, report).toBeGreaterThanOrEqual(100)
  expect(counts.delivered.steering, report).toBeGreaterThanOrEqual(1)
  expect(counts.delivered.context, report).toBeGreaterThanOrEqual(20)
  expect(counts.settled.refused ?? 0, report).toBeGreaterThanOrEqual(1)
  expect(counts.settled.discarded ?? 0, report).toBeGreaterThanOrEqual(1)
}, 240_000)
