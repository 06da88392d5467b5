/**
 * R68 on PostgreSQL, with the owner in this process: an interrupting steer sent from a client
 * (`steer(x, {interrupt: true})`, or `send` with `interrupt: true`) is applied by the owner while
 * its model streams, and cuts that step there: the text so far is kept as an interrupted answer,
 * the steer is drained and the next step runs; the client's `outcome(id)` names the cut step.
 */
import { filter, firstValueFrom, Subject } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ModelEvent } from '../../../src/index.js'
import { connectSessions, migrate } from '../../../src/postgres.js'
import { committedEvents, ownSession, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

it.each([
  ['steer(x, {interrupt: true})', 'steer'],
  ["send(x, {target: 'next-step', wakeup: true, interrupt: true})", 'send'],
] as const)(
  'R68, R55: a remote %s cuts the step the owner streams; the partial text is kept, the next step runs with the steer',
  async (_call, how) => {
    const session = `interrupted-by-${how}`
    const stream = new Subject<ModelEvent>()
    const client = connectSessions(db.pool, { pollMs: 100 })
    const remote = client.session(session)
    const owner = await ownSession(db.pool, session, [stream, 'ok'])
    const aborted: unknown[] = []
    const delta = firstValueFrom(owner.agent.events$.pipe(filter((e) => e.type === 'agent/stream/delta')))
    await remote.followup('hi')
    await until(() => stream.observed, 'the request')
    owner.model.requests[0]?.signal.addEventListener('abort', () =>
      aborted.push(owner.model.requests[0]?.signal.reason),
    )
    stream.next({ type: 'text', text: 'partial ' })
    await delta
    // The stream is never finished by the test: only the steer can end this step.
    const id =
      how === 'steer'
        ? await remote.steer('stop', { interrupt: true })
        : await remote.send('stop', { target: 'next-step', wakeup: true, interrupt: true })
    expect(await remote.outcome(id)).toMatchObject({
      kind: 'delivered',
      as: 'steering',
      turn: 1,
      step: 1,
      interrupted: { turn: 1, step: 1 },
    })
    await owner.agent.whenIdle()
    await owner.agent.session.flush()
    expect(aborted).toEqual([{ kind: 'interrupted' }])
    expect(stream.observed).toBe(false)
    const events = await committedEvents(db.pool, session)
    const answers = events.flatMap((e) => (e.type === 'assistant/message' ? [e.data] : []))
    expect(answers).toMatchObject([
      { turn: 1, step: 1, content: [{ type: 'text', text: 'partial ' }], interrupted: true },
      { turn: 1, step: 2, content: [{ type: 'text', text: 'ok' }] },
    ])
    expect(answers[1]).not.toHaveProperty('interrupted')
    expect(events.find((e) => e.type === 'step/end')?.data).toMatchObject({
      turn: 1,
      step: 1,
      interrupted: true,
    })
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'completed' } } })
    // The second request holds the partial answer, then the steer.
    const second = owner.model.requests[1]?.messages.map((m) => m.role)
    expect(second).toEqual(['user', 'assistant', 'user'])
    expect(owner.failures).toEqual([])
    await owner.release()
    await client.close()
  },
)
