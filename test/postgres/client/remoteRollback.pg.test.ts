/**
 * R77 on PostgreSQL, with the owner in this process: `client.session(id).rollback(n)` is a
 * `remote-rollback` journal row the owner applies through the agent's own `rollback` at its next
 * idle moment. It resolves once the `rollback` event is committed; bad counts reject with the
 * local call's `InvalidInputError`, and the client stores nothing for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InvalidInputError, type Message, surfaceMessages } from '../../../src/index.js'
import { connectSessions, migrate } from '../../../src/postgres.js'
import { gate } from '../../support/agents.js'
import { journal } from '../../support/postgresApprovals.js'
import { committedEvents, ownSession, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const texts = (messages: readonly Message[]) =>
  messages.map((m) => `${m.role}:${m.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('')}`)

const turnsEnded = async (session: string) =>
  (await committedEvents(db.pool, session)).filter((e) => e.type === 'turn/end').length

/** A session whose owner (in this process) ran `one`, `two`, `three` as three turns, now idle. */
const threeTurns = async (
  session: string,
  more: readonly (string | ReturnType<typeof gate>['reply'])[] = [],
) => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session(session)
  const owner = await ownSession(db.pool, session, ['a1', 'a2', 'a3', ...more])
  for (const text of ['one', 'two', 'three']) await remote.followup(text)
  await until(async () => (await turnsEnded(session)) === 3, 'three turns committed')
  await owner.agent.whenIdle()
  return { client, remote, owner }
}

describe('R77: remote rollback', () => {
  it('R77: while the owner is idle it is applied at once and resolves with the rollback committed; the client, a follower and the owner see the same messages', async () => {
    const session = 'rollback-idle'
    const { client, remote, owner } = await threeTurns(session, ['a4'])
    const follower = connectSessions(db.pool, { pollMs: 100 })
    const followed: (readonly Message[])[] = []
    const following = follower
      .session(session)
      .transcript$.pipe(surfaceMessages())
      .subscribe((messages) => followed.push(messages))
    await until(() => followed.at(-1)?.length === 6, 'the follower caught up')

    await remote.rollback(1)
    // Resolved: the event is committed already, no wait.
    expect((await committedEvents(db.pool, session)).at(-1)).toMatchObject({
      type: 'rollback',
      data: { toTurn: 2 },
    })
    const kept = ['user:one', 'assistant:a1', 'user:two', 'assistant:a2']
    expect(texts(await remote.messages())).toEqual(kept)
    expect(texts(owner.agent.session.messages())).toEqual(kept)
    await until(
      () => followed.length > 0 && texts(followed.at(-1) ?? []).join() === kept.join(),
      'the follower',
    )

    // Turn numbers go on; the next turn follows the kept ones.
    await remote.followup('four')
    await until(async () => (await turnsEnded(session)) === 4, 'turn 4')
    const events = await committedEvents(db.pool, session)
    expect(events.filter((e) => e.type === 'turn/start').map((e) => e.data.turn)).toEqual([1, 2, 3, 4])
    expect(texts(await remote.messages())).toEqual([...kept, 'user:four', 'assistant:a4'])
    expect(owner.failures).toEqual([])
    following.unsubscribe()
    await owner.release()
    await Promise.all([client.close(), follower.close()])
  })

  it('R77: requested while a turn runs it waits for the turn to end, then undoes that turn; a followup stored after it runs after it', async () => {
    const session = 'rollback-busy'
    const g = gate()
    const client = connectSessions(db.pool, { pollMs: 100 })
    const remote = client.session(session)
    const owner = await ownSession(db.pool, session, ['a1', g.reply, 'a3'])
    await remote.followup('one')
    await until(async () => (await turnsEnded(session)) === 1, 'turn 1')
    await remote.followup('two')
    await until(() => g.called(), 'turn 2 asking the model')
    let resolved = false
    const rolled = remote.rollback(1).then(() => {
      resolved = true
    })
    await remote.followup('three')
    // Stored behind the rollback, the followup waits for it: it is not queued while turn 2 runs.
    await until(
      async () => (await journal(db.pool, session)).some((row) => row.op === 'remote-rollback'),
      'the rollback row',
    )
    expect(owner.agent.inbox.queue).toEqual([])
    expect(resolved).toBe(false)
    g.release('a2')
    await rolled
    await until(async () => (await turnsEnded(session)) === 3, 'turn 3')
    const events = await committedEvents(db.pool, session)
    // The rollback came after turn 2 ended and before turn 3 began: it undid turn 2, not turn 3.
    expect(
      events.filter((e) => e.type === 'rollback' || e.type === 'turn/start').map((e) => e.data),
    ).toMatchObject([{ turn: 1 }, { turn: 2 }, { toTurn: 1 }, { turn: 3 }])
    expect(texts(await remote.messages())).toEqual(['user:one', 'assistant:a1', 'user:three', 'assistant:a3'])
    expect(owner.failures).toEqual([])
    await owner.release()
    await client.close()
  })

  it.each([[0], [-1], [1.5], [Number.NaN], ['1'], [undefined]])(
    'R77, R2: rollback(%j) throws InvalidInputError at once and stores nothing',
    async (turns) => {
      const client = connectSessions(db.pool)
      const remote = client.session('rollback-bad-shape')
      expect(() => remote.rollback(turns as number)).toThrow(InvalidInputError)
      expect(() => remote.rollback(turns as number)).toThrow(/^rollback\(\): turns: expected how many turns/)
      expect(await journal(db.pool, 'rollback-bad-shape')).toEqual([])
      await client.close()
    },
  )

  it('R77: more turns than the committed log holds rejects with the local InvalidInputError and stores nothing', async () => {
    const session = 'rollback-too-many'
    const { client, remote, owner } = await threeTurns(session)
    const rows = await journal(db.pool, session)
    const events = await committedEvents(db.pool, session)
    const error = await remote.rollback(4).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(String(error)).toMatch(/^InvalidInputError: rollback\(\): turns: only 3 turns can be undone$/)
    expect(await journal(db.pool, session)).toEqual(rows)
    expect(await committedEvents(db.pool, session)).toEqual(events)
    // A session that holds no turn (here: none at all) has none to undo.
    await expect(client.session('rollback-nothing').rollback(1)).rejects.toThrow(/there is no turn to undo/)
    expect(await journal(db.pool, 'rollback-nothing')).toEqual([])
    await owner.release()
    await client.close()
  })

  it('R77: two clients each undo 2 of the 3 turns there will be: the owner applies the first and refuses the second with InvalidInputError, writing one rollback', async () => {
    const session = 'rollback-refused-by-owner'
    const g = gate()
    const clients = [connectSessions(db.pool, { pollMs: 100 }), connectSessions(db.pool, { pollMs: 100 })]
    const [a, b] = clients.map((c) => c.session(session))
    const owner = await ownSession(db.pool, session, ['a1', 'a2', g.reply])
    for (const text of ['one', 'two']) await a!.followup(text)
    await until(async () => (await turnsEnded(session)) === 2, 'two turns')
    await a!.followup('three')
    await until(() => g.called(), 'turn 3 asking the model')
    // Both pass the client's check (2 turns committed) and wait for turn 3 to end.
    const both = Promise.allSettled([a!.rollback(2), b!.rollback(2)])
    await until(
      async () => (await journal(db.pool, session)).filter((r) => r.op === 'remote-rollback').length === 2,
      'both rows',
    )
    g.release('a3')
    const settled = await both
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected'])
    const reason = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []))[0]
    expect(reason).toBeInstanceOf(InvalidInputError)
    expect(String(reason)).toMatch(/only 1 turn can be undone when the owner applied it/)
    const events = await committedEvents(db.pool, session)
    expect(events.filter((e) => e.type === 'rollback').map((e) => e.data)).toEqual([{ toTurn: 1 }])
    expect(texts(await a!.messages())).toEqual(['user:one', 'assistant:a1'])
    expect(owner.failures).toEqual([])
    await owner.release()
    await Promise.all(clients.map((c) => c.close()))
  })
})
