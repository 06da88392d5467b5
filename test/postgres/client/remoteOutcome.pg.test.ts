/** R55: a remote `outcome(id)` resolves once the event or settlement that decides it is durable. */
import { from, lastValueFrom } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAgent, InvalidInputError } from '../../../src/index.js'
import { connectSessions, migrate, openPostgresSession } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { add, id, removed, settle } from '../../support/inboxRecords.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

it('R55, R42: a remote outcome of a delivered message is what the owner answers, once it is durable', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const store = await openPostgresSession(db.pool, 'delivered')
  await store.takeLease()
  const agent = createAgent({ model: scriptedModel(['a1', 'a2']), store })
  const prompt = agent.followup('q1')
  const remote = client.session('delivered').outcome(prompt)
  await agent.whenIdle()
  await agent.session.flush()
  expect(await remote).toEqual(await agent.outcome(prompt))
  expect(await remote).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 1 })
  await agent.dispose()
  await client.close()
})

it('R55: a remote outcome of a message settled without a trace is the journal settlement', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  // The owner drives the session first: the id is one of its own, not yet durable at the call.
  const store = await openPostgresSession(db.pool, 'settled')
  await store.takeLease()
  const outcome = client.session('settled').outcome(id('gone'))
  store.inbox.append([add('gone'), settle('gone', removed)])
  await lastValueFrom(from(store.flush()), { defaultValue: undefined })
  expect(await outcome).toEqual(removed)
  await store.release()
  await client.close()
})

it('R55, R2: outcome() of something that is not an id throws InvalidInputError', async () => {
  const client = connectSessions(db.pool)
  expect(() => client.session('any').outcome('' as never)).toThrow(InvalidInputError)
  await client.close()
})
