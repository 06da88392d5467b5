/**
 * R54: an owner that loses its lease stops driving without discarding anything. The server ends
 * the lease's connection while a turn runs and two followups wait; the agent stops (its turn
 * ends as by a keepInbox cancel, nothing is discarded), and the next owner finds both followups
 * waiting in the journal and runs them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AgentEvent, createAgent } from '../../../src/index.js'
import { applyRemoteSends, connectSessions, migrate, openPostgresSession } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { gate, setup } from '../../support/agents.js'
import { terminablePool } from '../../support/terminablePool.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'
import { until } from '../../support/until.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

it('R54: an owner that lost its lease stops driving, discards nothing, and the next owner runs what waited', async () => {
  const { pool, terminate } = terminablePool(db, 'lease-lost', 3)
  const store = await openPostgresSession(pool, 'lost', { pollMs: 100 })
  await store.takeLease()
  const g = gate()
  const { agent } = setup([g.reply], { store })
  const events: AgentEvent[] = []
  agent.events$.subscribe((e) => events.push(e))
  const failures: unknown[] = []
  const feed = applyRemoteSends(agent, store, { failed: (error) => failures.push(error) })
  const first = agent.followup('first')
  await until(() => agent.status === 'running', 'the first turn to run')
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('lost')
  const waiting = [await remote.followup('second'), await remote.followup('third')]
  await until(() => agent.inbox.queue.length === 2, 'two queued followups')
  await agent.session.flush()

  await terminate()
  await until(() => agent.status === 'idle' && failures.length > 0, 'the lost lease to stop the owner')
  expect(store.failure).toBeDefined()
  expect(failures).toEqual([store.failure])
  expect(agent.status).toBe('idle')
  expect(events.filter((e) => e.type === 'agent/inbox/discard')).toEqual([])
  expect(() => agent.followup('late')).toThrow(/disposed/)
  feed.unsubscribe()
  await pool.end()

  // The next owner closes the cut-off turn (R51) and runs both followups that waited.
  const next = await openPostgresSession(db.pool, 'lost', { pollMs: 100 })
  await next.takeLease()
  const resumed = createAgent({ model: scriptedModel(['one', 'two', 'three']), store: next })
  const nextFeed = applyRemoteSends(resumed, next)
  // The restored inbox knows every id: each outcome settles when its turn has run.
  const outcomes = await Promise.all([first, ...waiting].map((id) => resumed.outcome(id)))
  await resumed.whenIdle()
  expect(outcomes.map((o) => o.kind)).toEqual(['delivered', 'delivered', 'delivered'])
  nextFeed.unsubscribe()
  await resumed.dispose()
  await client.close()
}, 60_000)
