/**
 * R56 `events$` of a remote session: the owner's live events reach followers in other processes
 * while it runs, in order, through NOTIFY on the session's own channel; what cannot travel is
 * replaced by a marker; unsubscribing lets the channel go.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AgentEvent, createAgent, type ModelEvent } from '../../../src/index.js'
import { liveChannel } from '../../../src/postgres/channels.js'
import {
  applyRemoteSends,
  connectSessions,
  createWorker,
  migrate,
  openPostgresSession,
  type PostgresPool,
  publishEvents,
  type RemoteAgentEvent,
} from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { bundleChild, type ChildProgram } from '../../support/bundleChild.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'
import { until } from '../../support/until.js'

let db: TestDatabase
let program: ChildProgram
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  program = await bundleChild('eventsChild', { deadlineMs: 60_000 })
}, 60_000)
afterAll(async () => {
  program.remove()
  await db.drop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** How many connections LISTEN to the session's live channel (their last statement says so). */
const listeners = async (session: string) => {
  const { rows } = await db.pool.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
    [`LISTEN ${liveChannel(session)}`],
  )
  return rows[0]?.n as number
}
const types = (events: readonly RemoteAgentEvent[]) =>
  events.filter((e) => e.type !== 'agent/stream/delta').map((e) => e.type)
const deltas = (events: readonly RemoteAgentEvent[]) =>
  events.flatMap((e) => (e.type === 'agent/stream/delta' ? [e.text] : [])).join('')

it('R56: a worker drives a session; events$ here and in a child process see its live events in order', async () => {
  const client = connectSessions(db.pool)
  const session = client.session('watched')
  const seen: RemoteAgentEvent[] = []
  const subscription = session.events$.subscribe((event) => seen.push(event))
  const child = program.start({ env: { DATABASE_URL: db.url, SESSION: 'watched' } })
  await until(async () => (await listeners('watched')) === 2, 'two LISTENs')
  const worker = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel(['Hello there, friend.']) }),
    pollMs: 50,
    idleMs: 200,
  })
  const id = await session.followup('hi')
  await until(() => seen.some((e) => e.type === 'agent/status' && e.status === 'idle'), 'idle')
  expect(types(seen)).toStrictEqual([
    'agent/inbox/enqueue',
    'agent/status',
    'agent/inbox/dequeue',
    'agent/settled',
    'agent/status',
  ])
  const [enqueue] = seen
  expect(enqueue).toMatchObject({ type: 'agent/inbox/enqueue', message: { id }, placement: 'queued' })
  expect(seen.filter((e) => e.type === 'agent/status').map((e) => e.status)).toStrictEqual([
    'running',
    'idle',
  ])
  expect(deltas(seen)).toBe('Hello there, friend.')
  // The deltas come while the turn runs: after the dequeue, before it settles.
  const at = (type: string) => seen.findIndex((e) => e.type === type)
  const firstDelta = at('agent/stream/delta')
  expect(firstDelta).toBeGreaterThan(at('agent/inbox/dequeue'))
  expect(firstDelta).toBeLessThan(at('agent/settled'))
  expect(Object.isFrozen(enqueue)).toBe(true)

  await child.line(/^event agent\/status$/)
  await child.waitFor(
    'the child idle',
    () => child.lines.filter((l) => l === 'event agent/status').length === 2,
  )
  const childTypes = child.lines.filter((l) => !l.startsWith('event agent/stream/delta'))
  expect(childTypes).toStrictEqual(types(seen).map((t) => `event ${t}`))
  const childText = child.lines
    .filter((l) => l.startsWith('event agent/stream/delta '))
    .map((l) => JSON.parse(l.slice('event agent/stream/delta '.length)) as string)
    .join('')
  expect(childText).toBe('Hello there, friend.')
  subscription.unsubscribe()
  await worker.close()
  await client.close()
})

it('R56: an app-level owner publishes with publishEvents; followers get exactly its events$ (as JSON)', async () => {
  const client = connectSessions(db.pool)
  const seen: RemoteAgentEvent[] = []
  const subscription = client.session('app-owned').events$.subscribe((event) => seen.push(event))
  await until(async () => (await listeners('app-owned')) === 1, 'the LISTEN')
  const store = await openPostgresSession(db.pool, 'app-owned')
  await store.takeLease()
  const agent = createAgent({ model: scriptedModel(['One two three.', 'Four.']), store })
  const local: AgentEvent[] = []
  agent.events$.subscribe((event) => local.push(event))
  const publishing = publishEvents(agent, db.pool, 'app-owned')
  const applying = applyRemoteSends(agent, store)
  await client.session('app-owned').followup('first')
  agent.followup('second')
  await until(() => local.filter((e) => e.type === 'agent/settled').length === 2, 'two turns')
  await until(() => seen.length === local.length, 'every event')
  expect(seen).toStrictEqual(JSON.parse(JSON.stringify(local)))
  subscription.unsubscribe()
  publishing.unsubscribe()
  applying.unsubscribe()
  await agent.dispose()
  await client.close()
})

it('R56: an event too large for a notification is a too-large marker; a large delta arrives split, whole', async () => {
  const client = connectSessions(db.pool)
  const seen: RemoteAgentEvent[] = []
  const subscription = client.session('large').events$.subscribe((event) => seen.push(event))
  await until(async () => (await listeners('large')) === 1, 'the LISTEN')
  // Multi-byte characters, escapes and a pair of surrogates, past PostgreSQL's 8000-byte limit.
  const long = `${'é"\\\u0001😀 '.repeat(3000)}end`
  const store = await openPostgresSession(db.pool, 'large')
  await store.takeLease()
  const model = scriptedModel([
    (): ModelEvent[] => [
      { type: 'text', text: long },
      { type: 'finish', reason: 'stop' },
    ],
  ])
  const agent = createAgent({ model, store })
  const publishing = publishEvents(agent, db.pool, 'large')
  agent.followup('x'.repeat(10_000))
  await agent.whenIdle()
  await until(() => seen.some((e) => e.type === 'agent/status' && e.status === 'idle'), 'idle')
  expect(types(seen)).toStrictEqual([
    'remote/events-lost',
    'agent/status',
    'remote/events-lost',
    'agent/settled',
    'agent/status',
  ])
  expect(seen[0]).toStrictEqual({
    type: 'remote/events-lost',
    reason: 'too-large',
    count: 1,
    eventType: 'agent/inbox/enqueue',
  })
  expect(seen.filter((e) => e.type === 'agent/stream/delta').length).toBeGreaterThan(1)
  expect(deltas(seen)).toBe(long)
  subscription.unsubscribe()
  publishing.unsubscribe()
  await agent.dispose()
  await client.close()
})

it('R56: unsubscribing from events$ releases the LISTEN (UNLISTEN once the last follower leaves)', async () => {
  const connections: Array<{ query(text: string): Promise<{ rows: Record<string, unknown>[] }> }> = []
  const pool: PostgresPool = {
    connect: async () => {
      const connection = await db.pool.connect()
      connections.push(connection)
      return connection
    },
  }
  const client = connectSessions(pool)
  const channels = async () => {
    const { rows } = await connections[0]!.query('SELECT pg_listening_channels() AS c')
    return rows.map((r) => r.c)
  }
  const first = client.session('leaving').events$.subscribe()
  const second = client.session('leaving').events$.subscribe()
  await until(async () => (await listeners('leaving')) === 1, 'the LISTEN')
  expect(await channels()).toStrictEqual([liveChannel('leaving')])
  first.unsubscribe()
  await sleep(100)
  expect(await channels()).toStrictEqual([liveChannel('leaving')])
  second.unsubscribe()
  await until(async () => (await channels()).length === 0, 'the UNLISTEN')
  await client.close()
})

it('R56: a gap in a publisher’s batch numbers and an invalid event each become a marker; other sessions’ batches are ignored', async () => {
  const client = connectSessions(db.pool)
  const seen: RemoteAgentEvent[] = []
  const subscription = client.session('gappy').events$.subscribe((event) => seen.push(event))
  await until(async () => (await listeners('gappy')) === 1, 'the LISTEN')
  const status = { type: 'agent/status', agentId: 'a', status: 'running' }
  const notify = (batch: unknown) =>
    db.pool.query('SELECT pg_notify($1, $2)', [liveChannel('gappy'), JSON.stringify(batch)])
  await notify({ s: 'gappy', p: 'one', n: 1, e: [status] })
  await notify({ s: 'someone-else', p: 'one', n: 2, e: [status] })
  await notify({ s: 'gappy', p: 'one', n: 3, e: [{ type: 'agent/status', agentId: 'a', status: 'busy' }] })
  await notify({ s: 'gappy', p: 'two', n: 1, e: [status] })
  await until(() => seen.length === 4, 'four events')
  expect(seen).toStrictEqual([
    status,
    { type: 'remote/events-lost', reason: 'missed' },
    { type: 'remote/events-lost', reason: 'invalid', eventType: 'agent/status' },
    status,
  ])
  subscription.unsubscribe()
  await client.close()
})
