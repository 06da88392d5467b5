/**
 * A PostgreSQL owner commits each step when it ends (R85, amending R36): a follower's
 * `transcript$` receives a step while the turn's next step is still running.
 */

import { from, lastValueFrom } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { z } from 'zod'
import { createAgent, defineTool, type SessionEvent } from '../../../src/index.js'
import { connectSessions, migrate, openPostgresSession } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { gate } from '../../support/agents.js'
import { committedEvents } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'
import { until } from '../../support/until.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const ping = defineTool({
  name: 'ping',
  description: 'Answers pong.',
  parameters: z.object({}),
  execute: () => 'pong',
})

it("R85: a follower's transcript$ receives step 1 when it ends, while step 2's model request still runs", async () => {
  const store = await openPostgresSession(db.pool, 'steps')
  await store.takeLease()
  // Step 2's reply waits for the test: the turn cannot end (nor checkpoint) before it is released.
  const second = gate()
  const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'ping', arguments: '{}' }] }, second.reply])
  const agent = createAgent({ model, store, tools: [ping] })
  // Notifications only: the fallback poll would come after the test's deadline.
  const client = connectSessions(db.pool, { pollMs: 600_000 })
  const followed: SessionEvent[] = []
  const subscription = client.session('steps').transcript$.subscribe((e) => followed.push(e))

  agent.followup('go')
  await until(() => followed.some((e) => e.type === 'step/end'), "step 1's step/end on the follower")
  expect(second.called()).toBe(true)
  expect(agent.status).toBe('running')
  expect(followed.map((e) => e.type)).not.toContain('turn/end')
  const assistant = followed.find((e) => e.type === 'assistant/message')
  expect(assistant?.data.content).toEqual([{ type: 'tool-call', id: 'p1', name: 'ping', arguments: '{}' }])
  expect(followed.filter((e) => e.type === 'tool/result')).toHaveLength(1)
  // What the follower saw is exactly what the owner holds up to that step/end.
  expect(followed).toEqual(agent.session.events.slice(0, followed.length))

  second.release('done')
  await agent.whenIdle()
  await agent.session.flush()
  await until(() => followed.length === agent.session.events.length, 'the whole turn on the follower')
  expect(followed).toEqual(agent.session.events)
  expect(await committedEvents(db.pool, 'steps')).toEqual(agent.session.events)
  subscription.unsubscribe()
  await agent.dispose()
  await client.close()
})

it('R85, R55: a step checkpoint never writes a remote edit as applied before the flush that hands over what it did', async () => {
  const store = await openPostgresSession(db.pool, 'step-edit')
  await store.takeLease()
  const applied = async () =>
    Number(
      (await db.pool.query('SELECT remote_applied FROM steerable_sessions WHERE id = $1', ['step-edit']))
        .rows[0]?.remote_applied,
    )
  // The owner notes an edit a microtask before its flush hands over what the edit did; a step
  // ends in between, and its checkpoint commits.
  store.noteRemoteApplied(3)
  store.append([
    { seq: 1, type: 'turn/start', data: { turn: 1, trigger: { kind: 'retry' } } },
    { seq: 2, type: 'step/start', data: { turn: 1, step: 1 } },
    { seq: 3, type: 'step/end', data: { turn: 1, step: 1 } },
  ])
  await until(async () => (await committedEvents(db.pool, 'step-edit')).length === 3, 'the step checkpoint')
  expect(await applied()).toBe(0)
  // The flush that follows the hand-over writes it.
  await lastValueFrom(from(store.flush()), { defaultValue: undefined })
  expect(await applied()).toBe(3)
  await store.release()
})
