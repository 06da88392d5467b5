/**
 * The session store on PostgreSQL (R53): migrate, open without a lease, checkpoints as one
 * transaction, resume across agents, the inbox journal, and corrupt rows (R37).
 */
import { BehaviorSubject } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAgent, defineTool, SessionStoreError, type ToolDefinition } from '../../../src/index.js'
import { MIGRATIONS, MIGRATIONS_TABLE } from '../../../src/postgres/db/schema.js'
import { migrate, openPostgresSession, type PostgresSessionStore } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { add, id, settle } from '../../support/inboxRecords.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

let counter = 0
const newSession = () => `store-${++counter}`
const owned = async (sessionId: string): Promise<PostgresSessionStore> => {
  const store = await openPostgresSession(db.pool, sessionId)
  await store.takeLease()
  return store
}
const tool = (name: string): ToolDefinition =>
  defineTool({ name, description: `The ${name} tool.`, parameters: z.object({}), execute: () => name })
const count = async (table: string, sessionId: string) =>
  Number(
    (await db.pool.query(`SELECT count(*) AS n FROM ${table} WHERE session_id = $1`, [sessionId])).rows[0].n,
  )

describe('R53: migrate', () => {
  it('R53: migrate is idempotent, also when runs race', async () => {
    const fresh = await createTestDatabase()
    try {
      const [a, b] = await Promise.all([migrate(fresh.pool), migrate(fresh.pool)])
      expect([a, b].map((r) => r.from).sort()).toEqual([0, 3])
      expect(await migrate(fresh.pool)).toEqual({ from: 3, to: 3 })
      const { rows } = await fresh.pool.query(
        `SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'steerable_%' ORDER BY 1`,
      )
      expect(rows.map((r) => r.table_name)).toEqual([
        'steerable_events',
        'steerable_inbox',
        'steerable_migrations',
        'steerable_sessions',
      ])
    } finally {
      await fresh.drop()
    }
  })

  it('R53: tables of an older step say to run migrate again; migrate adds the new step and keeps the data', async () => {
    const fresh = await createTestDatabase()
    try {
      // The schema as step 1 left it, with a session in it.
      await fresh.pool.query(MIGRATIONS_TABLE)
      for (const statement of MIGRATIONS[0]!) await fresh.pool.query(statement)
      await fresh.pool.query('INSERT INTO steerable_migrations (version) VALUES (1)')
      await fresh.pool.query(`INSERT INTO steerable_sessions (id) VALUES ('old')`)
      await expect(openPostgresSession(fresh.pool, 'old')).rejects.toThrow(
        /older version: run migrate\(pool\)/,
      )
      expect(await migrate(fresh.pool)).toEqual({ from: 1, to: 3 })
      const store = await openPostgresSession(fresh.pool, 'old')
      expect(store.remoteRequests).toEqual([])
    } finally {
      await fresh.drop()
    }
  })

  it('R53: without migrate, opening a session says to run it', async () => {
    const fresh = await createTestDatabase()
    try {
      const opening = openPostgresSession(fresh.pool, 'any')
      await expect(opening).rejects.toBeInstanceOf(SessionStoreError)
      await expect(opening).rejects.toThrow(/session "any" on PostgreSQL.*run migrate\(pool\)/)
    } finally {
      await fresh.drop()
    }
  })
})

describe('R53: the store', () => {
  it('R53: an unknown session opens empty, takes no lease, and refuses appends until it has one', async () => {
    const sessionId = newSession()
    const store = await openPostgresSession(db.pool, sessionId)
    expect(store.load()).toEqual([])
    expect(store.inbox.load()).toEqual([])
    expect(store.epoch).toBeUndefined()
    const agent = createAgent({ model: scriptedModel(['a1']), store })
    const errors: unknown[] = []
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/error') errors.push(e.error)
    })
    agent.followup('q1')
    await agent.whenIdle()
    await expect(agent.session.flush()).rejects.toThrow(/holds no lease.*takeLease\(\)/)
    expect(errors[0]).toBeInstanceOf(SessionStoreError)
    expect(await count('steerable_events', sessionId)).toBe(0)
    await agent.dispose()
  })

  it('R53, R37: a driven session is durable and a new agent on a reopened store continues it', async () => {
    const sessionId = newSession()
    const first = createAgent({ model: scriptedModel(['a1', 'a2']), store: await owned(sessionId) })
    first.followup('q1')
    first.followup('q2')
    await first.whenIdle()
    await first.dispose()
    const reader = await openPostgresSession(db.pool, sessionId)
    expect(reader.load()).toEqual(first.session.events)

    const model = scriptedModel(['a3'])
    const second = createAgent({ model, store: await owned(sessionId) })
    expect(second.session.messages()).toEqual(first.session.messages())
    second.followup('q3')
    await second.whenIdle()
    await second.session.flush()
    expect(model.requests[0]?.turn).toBe(3)
    expect((await openPostgresSession(db.pool, sessionId)).load()).toEqual(second.session.events)
    await second.dispose()
  })

  it('R100, R53: a session whose tool list changed between turns (tools/changed) reopens', async () => {
    const sessionId = newSession()
    const source = new BehaviorSubject<readonly ToolDefinition[]>([tool('a')])
    const first = createAgent({
      model: scriptedModel(['a1', 'a2']),
      store: await owned(sessionId),
      tools: [{ tools$: source }],
    })
    first.followup('q1')
    await first.whenIdle()
    source.next([tool('a'), tool('b')])
    first.followup('q2')
    await first.whenIdle()
    await first.dispose()
    expect(first.session.events.filter((e) => e.type === 'tools/changed')).toHaveLength(1)
    const reader = await openPostgresSession(db.pool, sessionId)
    expect(reader.load()).toEqual(first.session.events)
    const second = createAgent({ model: scriptedModel(['a3']), store: await owned(sessionId) })
    expect(second.session.events).toEqual(first.session.events)
    await second.dispose()
  })

  it('R53: each new owner gets a higher epoch, and its rows carry it', async () => {
    const sessionId = newSession()
    const first = await owned(sessionId)
    first.append([{ seq: 1, type: 'turn/start', data: { turn: 1, trigger: { kind: 'retry' } } }])
    await first.flush()
    await first.release()
    const second = await owned(sessionId)
    expect(second.epoch).toBe((first.epoch ?? 0) + 1)
    const { rows } = await db.pool.query('SELECT epoch FROM steerable_events WHERE session_id = $1', [
      sessionId,
    ])
    expect(rows.map((r) => Number(r.epoch))).toEqual([first.epoch])
    await second.release()
  })

  it('R50, R53: the inbox journal keeps its records in order, and an add stored twice is stored once', async () => {
    const sessionId = newSession()
    const store = await owned(sessionId)
    store.inbox.append([add('m1'), add('m2', 'steering', { turn: 2 }), settle('m1')])
    await store.flush()
    store.inbox.append([add('m2', 'steering', { turn: 2 }), add('m3', 'queued', { at: 'head' })])
    await store.flush()
    await store.release()
    const reopened = await openPostgresSession(db.pool, sessionId)
    expect(reopened.inbox.load()).toEqual([
      add('m1'),
      add('m2', 'steering', { turn: 2 }),
      settle('m1'),
      add('m3', 'queued', { at: 'head' }),
    ])
    expect(reopened.inbox.load().map((r) => ('id' in r ? r.id : r.op === 'add' ? r.message.id : ''))).toEqual(
      ['m1', 'm2', 'm1', 'm3'].map(id),
    )
  })
})
