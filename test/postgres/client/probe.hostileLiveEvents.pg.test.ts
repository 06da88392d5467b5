/**
 * Hostile probes of live events (R56): hostile and huge payloads through publishEvents, many
 * followers, unsubscribe and resubscribe, a session id full of escapes.
 */
import pg from 'pg'
import { Subject } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Agent, AgentEvent } from '../../../src/index.js'
import { liveChannel } from '../../../src/postgres/channels.js'
import { connectSessions, migrate, publishEvents, type RemoteAgentEvent } from '../../../src/postgres.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'
import { until } from '../../support/until.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const listeners = async (session: string) => {
  const { rows } = await db.pool.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
    [`LISTEN ${liveChannel(session)}`],
  )
  return rows[0]?.n as number
}

/** publishEvents reads only `events$`: an owner whose events are whatever the test emits. */
const fakeOwner = () => {
  const events$ = new Subject<AgentEvent>()
  return {
    agent: { events$ } as unknown as Agent,
    emit: (event: unknown) => events$.next(event as AgentEvent),
  }
}
const status = (s: 'idle' | 'running') => ({ type: 'agent/status', agentId: 'a', status: s })

it('R56, R23: hostile error payloads (a thrown symbol or undefined too) and huge events never break publishing; a huge delta arrives whole, in order', async () => {
  const sessionId = `"\\\u2028ü\u0001${'😀'.repeat(60)}`
  const client = connectSessions(db.pool)
  const got: RemoteAgentEvent[] = []
  const sub = client.session(sessionId).events$.subscribe((e) => got.push(e))
  await until(async () => (await listeners(sessionId)) === 1, 'the LISTEN')
  const { agent, emit } = fakeOwner()
  const errors: unknown[] = []
  const publishing = publishEvents(agent, db.pool, sessionId, { onError: (e) => errors.push(e) })
  const circular: Record<string, unknown> = { name: 'x' }
  circular.self = circular
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  const throwing = Object.defineProperty(new Error('x'), 'message', {
    get() {
      throw new Error('getter')
    },
  })
  // What the reducer emits when a hook throws these (R23): the value thrown, as is.
  const thrown = [circular, proxy, throwing, 10n, Symbol('s'), undefined, Object.create(null)]
  for (const error of thrown) emit({ type: 'agent/error', agentId: 'a', turn: 1, step: 0, error })
  emit({ type: 'agent/settled', agentId: 'a', turn: 1, reason: { kind: 'error', error: undefined } })
  const text = `a\u0000b${'é😀\ud800x"\\'.repeat(30_000)}`
  emit({ type: 'agent/stream/delta', agentId: 'a', turn: 1, step: 0, kind: 'text', text })
  emit({
    type: 'agent/inbox/dequeue',
    agentId: 'a',
    message: { id: 'm', content: [{ type: 'text', text: 'x'.repeat(100_000) }], source: { kind: 'user' } },
  })
  emit(status('idle'))
  await until(() => got.some((e) => e.type === 'agent/status'), 'the last event')
  expect(got.filter((e) => e.type === 'agent/error')).toHaveLength(thrown.length)
  expect(got.filter((e) => e.type === 'agent/settled')).toHaveLength(1)
  expect(got.flatMap((e) => (e.type === 'agent/stream/delta' ? [e.text] : [])).join('')).toBe(text)
  expect(got.filter((e) => e.type === 'remote/events-lost')).toEqual([
    { type: 'remote/events-lost', reason: 'too-large', count: 1, eventType: 'agent/inbox/dequeue' },
  ])
  expect(errors).toEqual([])
  publishing.unsubscribe()
  sub.unsubscribe()
  await client.close()
}, 30_000)

it('R56: fifty followers on one client share one LISTEN; unsubscribing and resubscribing at once keeps the channel', async () => {
  const sessionId = 'many-followers'
  const client = connectSessions(db.pool)
  const events$ = client.session(sessionId).events$
  const seen = Array.from({ length: 50 }, () => [] as string[])
  let subs = seen.map((log) => events$.subscribe((e) => log.push(e.type)))
  await until(async () => (await listeners(sessionId)) === 1, 'the LISTEN')
  // All leave and come back in the same tick: the UNLISTEN must not win over the new LISTEN.
  for (const s of subs) s.unsubscribe()
  subs = seen.map((log) => events$.subscribe((e) => log.push(e.type)))
  await sleep(300)
  expect(await listeners(sessionId)).toBe(1)
  const { agent, emit } = fakeOwner()
  const publishing = publishEvents(agent, db.pool, sessionId)
  emit(status('running'))
  emit(status('idle'))
  await until(() => seen.every((log) => log.length >= 2), 'every follower')
  expect(new Set(seen.map((log) => log.join()))).toEqual(new Set(['agent/status,agent/status']))
  publishing.unsubscribe()
  for (const s of subs) s.unsubscribe()
  await until(async () => (await listeners(sessionId)) === 0, 'the UNLISTEN')
  await client.close()
}, 30_000)

it('R56: a publisher unsubscribed mid-flush still sends what waited, and a closed client stops following without errors', async () => {
  const sessionId = 'publisher-stops'
  const client = connectSessions(db.pool)
  const got: RemoteAgentEvent[] = []
  let failed: unknown
  client.session(sessionId).events$.subscribe({ next: (e) => got.push(e), error: (e) => (failed = e) })
  await until(async () => (await listeners(sessionId)) === 1, 'the LISTEN')
  const { agent, emit } = fakeOwner()
  const publishing = publishEvents(agent, db.pool, sessionId, { batchMs: 1 })
  for (let i = 0; i < 200; i++)
    emit({ type: 'agent/stream/delta', agentId: 'a', turn: 1, step: 0, kind: 'text', text: `${i},` })
  await sleep(2)
  for (let i = 200; i < 400; i++)
    emit({ type: 'agent/stream/delta', agentId: 'a', turn: 1, step: 0, kind: 'text', text: `${i},` })
  publishing.unsubscribe()
  const expected = Array.from({ length: 400 }, (_, i) => `${i},`).join('')
  await until(
    () => got.flatMap((e) => (e.type === 'agent/stream/delta' ? [e.text] : [])).join('') === expected,
    'all deltas',
  )
  await client.close()
  await until(async () => (await listeners(sessionId)) === 0, 'the LISTEN to go')
  expect(failed).toBeUndefined()
}, 30_000)

it('R56: a publisher whose onError throws when the database refuses a batch keeps publishing, with no unhandled rejection', async () => {
  const rejections: unknown[] = []
  const onRejection = (reason: unknown) => rejections.push(reason)
  process.on('unhandledRejection', onRejection)
  // A pool on a port where nothing listens: every batch fails.
  const dead = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', max: 1 })
  dead.on('error', () => {})
  let told = 0
  const { agent, emit } = fakeOwner()
  const publishing = publishEvents(agent, dead, 'dead-publisher', {
    batchMs: 1,
    timeoutMs: 2_000,
    onError: () => {
      told++
      throw null
    },
  })
  emit(status('running'))
  await until(() => told >= 1, 'the first failed batch')
  emit(status('idle'))
  await until(() => told >= 2, 'the second failed batch')
  await sleep(100)
  publishing.unsubscribe()
  process.off('unhandledRejection', onRejection)
  await dead.end()
  expect(rejections).toEqual([])
}, 30_000)
