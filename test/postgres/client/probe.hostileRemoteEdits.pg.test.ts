/**
 * Hostile probes of remote edits and cancel (R43–R46, R55, R58): hostile arguments, ids of
 * another session, replace of steering, huge and U+0000 content, concurrent no-owner cancels.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AgentMessageId, InvalidInputError } from '../../../src/index.js'
import { connectSessions, migrate, openPostgresSession } from '../../../src/postgres.js'
import type { ScriptedReply } from '../../../src/testing.js'
import { gate, setup } from '../../support/agents.js'
import { hostileValues } from '../../support/hostile.js'
import { committedEvents, ownSession, storedInbox, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const owner = (sessionId: string, script: readonly ScriptedReply[]) => ownSession(db.pool, sessionId, script)

const events = (sessionId: string) => committedEvents(db.pool, sessionId)

const journalRows = async (sessionId: string): Promise<number> =>
  Number(
    (
      await db.pool.query(
        `SELECT count(*) AS n FROM steerable_inbox WHERE session_id = $1 AND op LIKE 'remote-%'`,
        [sessionId],
      )
    ).rows[0].n,
  )

it('R43–R46, R58, R2: every hostile argument to a remote edit or cancel throws InvalidInputError at once and stores nothing', async () => {
  const client = connectSessions(db.pool)
  const remote = client.session('hostile-edits')
  await remote.followup('seed')
  const before = await journalRows('hostile-edits')
  let accepted = 0
  for (const [name, value] of Object.entries(hostileValues())) {
    const calls: [string, () => unknown][] = [
      ['remove', () => remote.remove(value as AgentMessageId)],
      ['replace id', () => remote.replace(value as AgentMessageId, 'x')],
      ['replace input', () => remote.replace('some-id' as AgentMessageId, value as string)],
      ['move id', () => remote.move(value as AgentMessageId, 0)],
      ['move index', () => remote.move('some-id' as AgentMessageId, value as number)],
      ['promote', () => remote.promote(value as AgentMessageId)],
      ['cancel options', () => remote.cancel({ kind: 'user' }, value as never)],
    ]
    if (value !== undefined) calls.push(['cancel cause', () => remote.cancel(value as never)])
    for (const [call, run] of calls) {
      if (call === 'cancel options' && (value === undefined || value === null)) continue
      let thrown: unknown
      try {
        const result = run()
        thrown =
          result instanceof Promise
            ? await result.then(
                () => 'resolved',
                (e) => e,
              )
            : 'returned'
      } catch (error) {
        thrown = error
      }
      if (call === 'cancel options') {
        // Options the local call accepts (an empty null-prototype object) are accepted here too.
        const local = setup([]).agent
        let localThrew = false
        try {
          local.cancel({ kind: 'user' }, value as never)
        } catch {
          localThrew = true
        }
        if (!localThrew) {
          expect(thrown, `${call} with ${name}`).toBe('resolved')
          accepted++
          continue
        }
      }
      expect(thrown, `${call} with ${name}`).toBeInstanceOf(InvalidInputError)
    }
  }
  expect(await journalRows('hostile-edits')).toBe(before + accepted)
  await client.close()
})

it('R44, R1: a remote replace with 2 MB of text holding U+0000 and lone surrogates is applied exactly', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('replace-huge')
  const g = gate()
  const { agent, release, model } = await owner('replace-huge', [g.reply, 'second'])
  await remote.followup('first')
  await until(() => agent.status === 'running', 'the turn')
  const queued = await remote.followup('queued')
  await until(() => agent.inbox.queue.length === 1, 'the queue')
  const text = `a\u0000b\ud800c${'é'.repeat(1_000_000)}`
  await remote.replace(queued, text)
  await until(
    () =>
      (agent.inbox.queue[0] as { message?: { content: { text?: string }[] } } | undefined)?.message
        ?.content[0]?.text === text || false,
    'the replace',
  )
  g.release('one')
  await until(() => model.requests.length === 2 && agent.status === 'idle', 'the second turn')
  await agent.session.flush()
  const user = (await events('replace-huge')).filter((e) => e.type === 'user/message')
  const last = user.at(-1)?.data as unknown as { content: { text: string }[] } | undefined
  expect(last?.content[0]?.text).toBe(text)
  await release()
  await client.close()
}, 30_000)

it('R44: a remote replace of a steering item changes the steering the turn reads, and it stays steering', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('replace-steer')
  const g = gate()
  const { agent, release, model } = await owner('replace-steer', [g.reply, 'after'])
  await remote.followup('first')
  await until(() => agent.status === 'running', 'the turn')
  const steer = await remote.steer('old steer')
  await until(() => agent.inbox.outbox.length === 1, 'the steering')
  await remote.replace(steer, 'new steer')
  const client2 = connectSessions(db.pool, { pollMs: 100 })
  // The replace is applied before anything after it from any client (journal order).
  await client2.session('replace-steer').followup('barrier')
  await until(() => agent.inbox.queue.length === 1, 'the barrier')
  g.release('one')
  await until(() => model.requests.length >= 2, 'the steered step')
  await agent.whenIdle()
  await agent.session.flush()
  const steering = (await events('replace-steer')).filter((e) => e.type === 'steering/message')
  expect(
    steering.map((e) => (e.data as unknown as { content: { text: string }[] }).content[0]?.text),
  ).toEqual(['new steer'])
  expect(await remote.outcome(steer)).toMatchObject({ kind: 'delivered', as: 'steering' })
  await release()
  await client.close()
  await client2.close()
}, 30_000)

it('R43, R55: a remote remove of an id that waits in another session leaves that item alone, and the request is consumed', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const a = client.session('other-a')
  const b = client.session('other-b')
  const ga = gate()
  const gb = gate()
  const ownerA = await owner('other-a', [ga.reply])
  const ownerB = await owner('other-b', [gb.reply, 'b2'])
  await a.followup('a1')
  await b.followup('b1')
  await until(() => ownerA.agent.status === 'running' && ownerB.agent.status === 'running', 'both turns')
  const queuedB = await b.followup('b queued')
  await until(() => ownerB.agent.inbox.queue.length === 1, 'b queue')
  await a.remove(queuedB)
  await a.promote(queuedB)
  await a.move(queuedB, 0)
  await a.replace(queuedB, 'hijacked')
  const barrier = await a.followup('barrier')
  await until(() => ownerA.agent.inbox.queue.length === 1, 'the barrier in a')
  expect(ownerB.agent.inbox.queue.map((i) => [i.message.id, i.message.content[0]])).toEqual([
    [queuedB, { type: 'text', text: 'b queued' }],
  ])
  gb.release('b')
  await until(() => ownerB.model.requests.length === 2, 'b second turn')
  await ownerB.agent.whenIdle()
  expect(await b.outcome(queuedB)).toMatchObject({ kind: 'delivered', as: 'prompt' })
  ga.release('a')
  await ownerA.agent.session.flush()
  await ownerA.release()
  await ownerB.release()
  const next = await openPostgresSession(db.pool, 'other-a')
  expect(
    next.remoteRequests.filter((r) => !('message' in r.record) || r.record.message.id !== barrier),
  ).toEqual([])
  expect(ownerA.failures).toEqual([])
  await client.close()
}, 30_000)

it('R58: several no-owner cancels at once: each resolves only once applied, and none is left waiting in the journal', async () => {
  // A race: three rounds of five clients, so that in some round one client's cancel is stored
  // while another client holds the lease for its own (earlier) cancel.
  const left: string[][] = []
  for (const round of [1, 2, 3]) {
    const sessionId = `cancel-many-${round}`
    const { client, queued } = await storedInbox(db.pool, sessionId)
    const clients = [0, 1, 2, 3, 4].map(() => connectSessions(db.pool, { pollMs: 100 }))
    const results = await Promise.allSettled(clients.map((c) => c.session(sessionId).cancel()))
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ])
    expect(await client.session(sessionId).outcome(queued)).toEqual({ kind: 'discarded', reason: 'cancel' })
    // No owner came: a cancel that resolved but waits still is applied by whoever owns next,
    // in whatever state the session is then.
    left.push((await openPostgresSession(db.pool, sessionId)).remoteRequests.map((r) => r.record.op))
    for (const c of clients) await c.close()
    await client.close()
  }
  expect(left).toEqual([[], [], []])
}, 60_000)

it('R45: remote moves to extreme integer positions are applied like local ones and consumed, never a failure', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('move-extreme')
  const g = gate()
  const { agent, release, failures } = await owner('move-extreme', [g.reply])
  await remote.followup('first')
  await until(() => agent.status === 'running', 'the turn')
  const q = [await remote.followup('q1'), await remote.followup('q2'), await remote.followup('q3')]
  await until(() => agent.inbox.queue.length === 3, 'the queue')
  await remote.move(q[0]!, 1e308)
  await remote.move(q[2]!, -(2 ** 60))
  await remote.move(q[1]!, Number.MAX_SAFE_INTEGER + 2)
  await remote.move(q[1]!, -0)
  const barrier = await remote.followup('barrier')
  await until(() => agent.inbox.queue.some((i) => i.message.id === barrier), 'the barrier')
  expect(failures).toEqual([])
  await agent.session.flush()
  expect(agent.inbox.queue.map((i) => i.message.content[0])).toHaveLength(4)
  await release()
  expect(
    (await openPostgresSession(db.pool, 'move-extreme')).remoteRequests.filter(
      (r) => r.record.op === 'remote-move',
    ),
  ).toEqual([])
  await client.close()
}, 30_000)

it('R55, R1: a remote send and replace whose source holds odd but plain JSON (own __proto__ key, U+0000, -0) are applied, and later sends still flow', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('odd-json')
  const g = gate()
  const { agent, release, failures } = await owner('odd-json', [g.reply, 'two', 'three'])
  await remote.followup('first')
  await until(() => agent.status === 'running', 'the turn')
  const extra = JSON.parse(
    '{"__proto__": {"polluted": true}, "constructor": 1, "n": -0, "s": "a\\u0000b", "deep": [[[[]]]]}',
  )
  let odd: AgentMessageId | undefined
  let refused: unknown
  try {
    odd = await remote.followup({
      content: [{ type: 'text', text: 'odd' }],
      source: { kind: 'user', extra },
    } as never)
  } catch (error) {
    refused = error
  }
  if (odd)
    await remote.replace(odd, {
      content: [{ type: 'text', text: 'odd2' }],
      source: { kind: 'user', extra },
    } as never)
  const after = await remote.followup('after')
  await until(() => agent.inbox.queue.some((i) => i.message.id === after), 'the send after')
  expect(failures).toEqual([])
  expect(refused === undefined || refused instanceof InvalidInputError).toBe(true)
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  g.release('one')
  await release()
  await client.close()
}, 30_000)
