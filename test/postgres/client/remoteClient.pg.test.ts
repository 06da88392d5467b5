/**
 * The client side of sessions on PostgreSQL: remote sends (R55) stored durably, in order, once,
 * waiting for the owner in the journal; `transcript$` (R56) replaying and following commits.
 */
import pg from 'pg'
import { firstValueFrom, from, lastValueFrom, take, toArray } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAgent, InvalidInputError, SessionStoreError } from '../../../src/index.js'
import { PRESETS } from '../../../src/messages/acceptSend.js'
import { writeRemoteSend } from '../../../src/postgres/client/writeRemoteRequest.js'
import { acceptRemoteSend } from '../../../src/postgres/rows/remoteSendRecord.js'
import { connectSessions, migrate, openPostgresSession } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { terminablePool } from '../../support/terminablePool.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'
import { until } from '../../support/until.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const journal = async (sessionId: string) =>
  (
    await db.pool.query(
      'SELECT seq, op, message_id, record FROM steerable_inbox WHERE session_id = $1 ORDER BY seq',
      [sessionId],
    )
  ).rows

it('R55, R2: a remote send validates like a local one: bad input throws at once and stores nothing', async () => {
  const client = connectSessions(db.pool)
  const session = client.session('validate')
  expect(() => session.followup({ content: 'not blocks' } as never)).toThrow(InvalidInputError)
  expect(() => session.steer('x', { turn: 0 })).toThrow(/steer\(\): options\.turn/)
  expect(() => session.send('x', { target: 'next-turn', wakeup: false, turn: 2 })).toThrow(
    /a turn guard needs/,
  )
  expect(() => client.session('')).toThrow(InvalidInputError)
  expect(await journal('validate')).toEqual([])
  await client.close()
})

it('R55: a remote send resolves with its id once it is durable, as a request the owner has not applied yet', async () => {
  const client = connectSessions(db.pool)
  const id = await client.session('durable').steer('look at the tests', { turn: 3 })
  expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  const rows = await journal('durable')
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({ op: 'send', message_id: id })
  expect(rows[0].record).toEqual({
    op: 'send',
    message: { id, content: [{ type: 'text', text: 'look at the tests' }], source: { kind: 'user' } },
    options: { target: 'next-step', wakeup: true, turn: 3 },
  })
  // The owner sees it as a pending remote send, not as an inbox record.
  const store = await openPostgresSession(db.pool, 'durable')
  expect(store.inbox.load()).toEqual([])
  expect(store.remoteSends.map((s) => s.record.message.id)).toEqual([id])
  await client.close()
})

it('R55: a send stored twice is stored once', async () => {
  const record = acceptRemoteSend('once', undefined, PRESETS.followup, 'followup()')
  await writeRemoteSend(db.pool, 'twice', record, 5_000)
  await writeRemoteSend(db.pool, 'twice', record, 5_000)
  expect((await journal('twice')).map((r) => r.message_id)).toEqual([record.message.id])
})

it('R55: sends from one client to one session are stored in the order they were made', async () => {
  const client = connectSessions(db.pool)
  const session = client.session('ordered')
  const made = Array.from({ length: 24 }, (_, i) =>
    i % 3 === 0 ? session.followup(`m${i}`) : i % 3 === 1 ? session.steer(`m${i}`) : session.inject(`m${i}`),
  )
  const ids = await Promise.all(made)
  expect((await journal('ordered')).map((r) => r.message_id)).toEqual(ids)
  await client.close()
})

it('R56: transcript$ replays the committed events, then follows each checkpoint as it commits', async () => {
  const store = await openPostgresSession(db.pool, 'followed')
  await store.takeLease()
  const agent = createAgent({ model: scriptedModel(['a1', 'a2']), store })
  agent.followup('q1')
  await agent.whenIdle()
  await agent.session.flush()
  // Notifications only: the fallback poll would come after the test's timeout.
  const client = connectSessions(db.pool, { pollMs: 600_000 })
  const first = agent.session.events.length
  const seen = firstValueFrom(client.session('followed').transcript$.pipe(take(first + 6), toArray()))
  agent.followup('q2')
  await agent.whenIdle()
  await agent.session.flush()
  const events = await seen
  expect(events).toEqual(agent.session.events.slice(0, first + 6))
  expect(Object.isFrozen(events[0])).toBe(true)
  await agent.dispose()
  await client.close()
})

it('R56: without a notification, transcript$ still follows (the polling fallback)', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const seen = firstValueFrom(client.session('polled').transcript$.pipe(take(2), toArray()))
  await db.pool.query(`INSERT INTO steerable_sessions (id) VALUES ('polled')`)
  for (const seq of [1, 2])
    await db.pool.query(
      'INSERT INTO steerable_events (session_id, seq, epoch, event) VALUES ($1, $2, 1, $3)',
      [
        'polled',
        seq,
        JSON.stringify({ seq, type: 'turn/start', data: { turn: seq, trigger: { kind: 'retry' } } }),
      ],
    )
  expect((await seen).map((e) => e.seq)).toEqual([1, 2])
  await client.close()
})

it('R59: a remote send to a database that is down rejects with SessionStoreError', async () => {
  const pool = new pg.Pool({ connectionString: 'postgres://x:y@127.0.0.1:1/none' })
  pool.on('error', () => {})
  const client = connectSessions(pool, { timeoutMs: 2_000 })
  const sending = client.session('down').followup('hello')
  await expect(sending).rejects.toBeInstanceOf(SessionStoreError)
  await expect(sending).rejects.toThrow(
    /session "down" on PostgreSQL: cannot store the send \w+ .*ECONNREFUSED/,
  )
  await client.close()
  await pool.end()
})

it('R55: the owner sees the remote sends that waited, then each new one as it commits, in journal order', async () => {
  const client = connectSessions(db.pool)
  const session = client.session('owner-feed')
  const early = await session.followup('early')
  const store = await openPostgresSession(db.pool, 'owner-feed', { pollMs: 600_000 })
  await store.takeLease()
  // Notifications only: the fallback poll would come after the test's timeout.
  const seen = firstValueFrom(store.remoteSends$.pipe(take(3), toArray()))
  const late = [await session.steer('late 1'), await session.inject('late 2')]
  const feed = await seen
  expect(feed.map((s) => s.record.message.id)).toEqual([early, ...late])
  expect(feed.map((s) => s.record.options)).toEqual([PRESETS.followup, PRESETS.steer, PRESETS.inject])
  expect(feed.map((s) => s.seq)).toEqual([1, 2, 3])
  await store.release()
  await client.close()
})

it('R56: when its LISTEN connection is ended, transcript$ listens again and reads what it missed', async () => {
  const { pool, terminate } = terminablePool(db, 'follower', 4)
  // Notifications only (the fallback poll would come after the test's timeout); reconnects after 300 ms.
  const client = connectSessions(pool, { pollMs: 600_000, timeoutMs: 300 })
  const events: number[] = []
  const subscription = client.session('relisten').transcript$.subscribe((e) => events.push(e.seq))
  const store = await openPostgresSession(db.pool, 'relisten')
  await store.takeLease()
  const write = async (seq: number) => {
    store.append([{ seq, type: 'turn/start', data: { turn: seq, trigger: { kind: 'retry' } } }])
    await lastValueFrom(from(store.flush()), { defaultValue: undefined })
  }
  const received = (count: number) => until(() => events.length >= count, `${count} live events`)
  await write(1)
  await received(1)
  await terminate()
  await write(2)
  await received(2)
  await write(3)
  await received(3)
  expect(events).toEqual([1, 2, 3])
  subscription.unsubscribe()
  await store.release()
  await client.close()
  await pool.end()
})
