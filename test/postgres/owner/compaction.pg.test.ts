/**
 * R74, R75 on PostgreSQL: a compaction is one durable row like any other event; a reopened owner
 * and a follower's transcript both show the summary and the tail, and the live compaction events
 * reach followers.
 */
import { filter, firstValueFrom, take, toArray } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAgent, projectMessages } from '../../../src/index.js'
import { liveChannel } from '../../../src/postgres/channels.js'
import { connectSessions, migrate, openPostgresSession, publishEvents } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'
import { until } from '../../support/until.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

it('R74: a compaction on a PostgreSQL session survives the owner; a follower sees it and the live events', async () => {
  const store = await openPostgresSession(db.pool, 'compacted-history')
  await store.takeLease()
  const agent = createAgent({ model: scriptedModel(['a1', 'a2', 'a3']), store })
  const publishing = publishEvents(agent, db.pool, 'compacted-history')
  for (const q of ['q1', 'q2', 'q3']) agent.followup(q)
  await agent.whenIdle()
  await agent.session.flush()

  // Notifications only: the fallback poll would come after the test's timeout.
  const client = connectSessions(db.pool, { pollMs: 600_000 })
  const session = client.session('compacted-history')
  const before = agent.session.events.length
  const ended = firstValueFrom(session.events$.pipe(filter((e) => e.type === 'agent/compaction/end')))
  // Live events are not stored: only what is published once the LISTEN is in place reaches us.
  await until(async () => {
    const { rows } = await db.pool.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle' AND query = $1",
      [`LISTEN ${liveChannel('compacted-history')}`],
    )
    return rows[0]?.n === 1
  }, 'the LISTEN on the live channel')
  // The transcript follower reads once its own LISTEN is in place, so it needs no such wait.
  const transcript = firstValueFrom(session.transcript$.pipe(take(before + 1), toArray()))
  const result = await agent.compact({ summarize: () => 'q1 and q2 were answered' })
  expect(result.kind).toBe('compacted')
  await agent.whenIdle()
  await agent.session.flush()

  const followed = await transcript
  expect(followed.at(-1)).toMatchObject({ type: 'compaction', seq: before + 1 })
  expect(projectMessages(followed)).toEqual(agent.session.messages())
  expect(await ended).toMatchObject({ result: { kind: 'compacted', keptFromSeq: expect.any(Number) } })
  publishing.unsubscribe()
  await agent.dispose()
  await client.close()

  const reopened = await openPostgresSession(db.pool, 'compacted-history')
  await reopened.takeLease()
  const again = createAgent({ model: scriptedModel(['a4']), store: reopened })
  expect(again.session.messages().map((m) => m.content)).toEqual([
    [{ type: 'text', text: 'q1 and q2 were answered' }],
    [{ type: 'text', text: 'q3' }],
    [{ type: 'text', text: 'a3' }],
  ])
  await again.dispose()
}, 60_000)
