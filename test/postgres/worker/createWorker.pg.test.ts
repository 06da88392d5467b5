/**
 * R57 workers, R55 remote sends applied by the owner: a worker serves every session with waiting
 * work, routes a remote steer into the running turn, and releases idle sessions without
 * discarding. Workers SIGKILLed in other processes, and the sessions another one resumes, are
 * failover.pg.test.ts's.
 */
import { concatMap, timer } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelEvent, SessionEvent } from '../../../src/index.js'
import { connectSessions, createWorker, migrate } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'
import { until } from '../../support/until.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
}, 60_000)
afterAll(async () => {
  await db.drop()
})

const texts = (events: readonly SessionEvent[]) =>
  events.flatMap((e) =>
    (e.type === 'user/message' || e.type === 'steering/message') && e.data.content[0]?.type === 'text'
      ? [`${e.type === 'user/message' ? 'user' : 'steer'}:${e.data.content[0].text}`]
      : [],
  )
const committed = async (session: string) => {
  const { rows } = await db.pool.query(
    'SELECT seq, epoch, event FROM steerable_events WHERE session_id = $1 ORDER BY seq',
    [session],
  )
  return rows.map((r) => ({ epoch: Number(r.epoch), event: r.event as SessionEvent }))
}

describe('R57: createWorker', () => {
  it('R57, R55: a remote send into a session nobody drives wakes the worker at once, without waiting for its scan', async () => {
    const worker = createWorker({
      pool: db.pool,
      agent: () => ({ model: scriptedModel(['woken']) }),
      pollMs: 600_000,
      idleMs: 100,
    })
    const client = connectSessions(db.pool, { pollMs: 100 })
    try {
      // The worker's first scan (at start) finds nothing; the next is ten minutes away.
      await new Promise((resolve) => setTimeout(resolve, 500))
      const session = client.session('woken')
      const id = await session.followup('are you there?')
      expect(await session.outcome(id)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 1 })
    } finally {
      await worker.close()
      await client.close()
    }
  }, 30_000)

  it('R57, R55: serves remote followups in two sessions, in order, and releases them when idle', async () => {
    const worker = createWorker({
      pool: db.pool,
      agent: () => ({ model: scriptedModel(['one', 'two', 'three']) }),
      pollMs: 50,
      idleMs: 100,
    })
    const client = connectSessions(db.pool)
    const a = client.session('alpha')
    const b = client.session('beta')
    const ids = [await a.followup('a1'), await b.followup('b1'), await a.followup('a2')]
    const outcomes = await Promise.all(ids.map((id, i) => (i === 1 ? b : a).outcome(id)))
    expect(outcomes.map((o) => o.kind)).toStrictEqual(['delivered', 'delivered', 'delivered'])
    expect(texts((await committed('alpha')).map((r) => r.event))).toStrictEqual(['user:a1', 'user:a2'])
    await until(() => worker.sessions.size === 0, 'the idle sessions to be let go')
    expect(worker.sessions.size).toBe(0)
    await worker.close()
    await client.close()
  })

  it('R57: a full worker takes the next waiting session as soon as a slot frees, not at its next scan', async () => {
    const worker = createWorker({
      pool: db.pool,
      agent: () => ({ model: scriptedModel(['done']) }),
      concurrency: 1,
      pollMs: 600_000,
      idleMs: 100,
    })
    const client = connectSessions(db.pool, { pollMs: 100 })
    try {
      const first = client.session('slot-a')
      const second = client.session('slot-b')
      const ids = [await first.followup('one'), await second.followup('two')]
      const outcomes = await Promise.all([first.outcome(ids[0]!), second.outcome(ids[1]!)])
      expect(outcomes.map((o) => o.kind)).toStrictEqual(['delivered', 'delivered'])
    } finally {
      await worker.close()
      await client.close()
    }
  }, 30_000)

  it('R55, R4: a remote steer applied while the turn runs lands in that turn', async () => {
    let calls = 0
    let started: () => void = () => undefined
    const running = new Promise<void>((resolve) => {
      started = resolve
    })
    const model = () => {
      calls++
      started()
      return timer(calls === 1 ? 800 : 10).pipe(
        concatMap((): ModelEvent[] => [
          { type: 'text', text: 'ok' },
          { type: 'finish', reason: 'stop' },
        ]),
      )
    }
    const worker = createWorker({ pool: db.pool, agent: () => ({ model }), pollMs: 50, idleMs: 100 })
    const client = connectSessions(db.pool)
    const s = client.session('steered')
    await s.followup('go')
    await running
    const steer = await s.steer('fix')
    expect(await s.outcome(steer)).toMatchObject({ kind: 'delivered', as: 'steering', turn: 1 })
    const events = (await committed('steered')).map((r) => r.event)
    expect(texts(events)).toStrictEqual(['user:go', 'steer:fix'])
    expect(events.filter((e) => e.type === 'turn/start')).toHaveLength(1)
    await worker.close()
    await client.close()
  })
})
