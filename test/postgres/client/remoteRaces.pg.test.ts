/**
 * Races between a remote client and the owner, run many rounds (R55, R44, R4): whatever the
 * timing, the owner decides by its own state when it reaches the request, and nothing is lost
 * or doubled.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Outcome, SessionEvent } from '../../../src/index.js'
import { connectSessions, migrate } from '../../../src/postgres.js'
import type { ScriptedReply } from '../../../src/testing.js'
import { gate } from '../../support/agents.js'
import { mulberry32 } from '../../support/mulberry32.js'
import { ownSession, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const ROUNDS = 12
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const owner = (sessionId: string, script: readonly ScriptedReply[]) => ownSession(db.pool, sessionId, script)

const carrying = (events: readonly SessionEvent[], id: string) =>
  events.filter((e) => (e.data as { id?: string }).id === id)
const text = (event: SessionEvent | undefined) =>
  (((event?.data ?? {}) as { content?: { text?: string }[] }).content ?? []).map((b) => b.text).join('')

it('R55, R44: a remote replace racing the owner claiming the same item: the edit wins if applied first, else the original runs; never both, never neither', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const random = mulberry32(44)
  const seen = { edited: 0, original: 0 }
  for (let round = 0; round < ROUNDS; round++) {
    const name = `race-replace-${round}`
    const remote = client.session(name)
    const g = gate()
    const { agent, release } = await owner(name, [g.reply, 'ok'])
    await remote.followup('first')
    await until(() => agent.status === 'running', 'the first turn')
    const id = await remote.followup('original')
    await until(() => agent.inbox.queue.length === 1, 'the queued item')
    // The turn ends (and the owner claims the item) while the replace is on its way.
    const wait = Math.floor(random() * 12)
    const replaced = remote.replace(id, 'edited')
    await sleep(wait)
    g.release('done')
    await replaced
    const outcome: Outcome = await remote.outcome(id)
    await until(() => agent.status === 'idle', 'the second turn')
    await agent.session.flush()
    expect(outcome).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 2 })
    const events = agent.session.events
    const delivered = carrying(events, id)
    expect(delivered).toHaveLength(1)
    expect(delivered[0]?.seq).toBe((outcome as { seq: number }).seq)
    const got = text(delivered[0])
    expect(['original', 'edited']).toContain(got)
    seen[got as 'edited' | 'original']++
    // What the owner journaled agrees: a replace record exactly when the edit won.
    const { rows } = await db.pool.query(
      `SELECT count(*) AS n FROM steerable_inbox WHERE session_id = $1 AND op = 'replace'`,
      [name],
    )
    expect(Number(rows[0].n)).toBe(got === 'edited' ? 1 : 0)
    await release()
  }
  expect(seen.edited + seen.original).toBe(ROUNDS)
  await client.close()
}, 120_000)

it('R55, R4: a remote steer racing turn/end lands in the turn or becomes the next turn’s prompt; never lost', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const random = mulberry32(4)
  const seen: Record<string, number> = { steering: 0, prompt: 0, context: 0, other: 0 }
  for (let round = 0; round < ROUNDS; round++) {
    const name = `race-steer-${round}`
    const remote = client.session(name)
    const g = gate()
    const { agent, release } = await owner(name, [g.reply, 'ok', 'ok'])
    await remote.followup('first')
    await until(() => agent.status === 'running', 'the first turn')
    const steered = remote.steer('late')
    await sleep(Math.floor(random() * 12))
    g.release('done')
    const id = await steered
    const outcome = await remote.outcome(id)
    await until(() => agent.status === 'idle', 'the turns')
    await agent.session.flush()
    // Drained at the turn's last boundary, or (the window closed first) a followup (R4).
    if (outcome.kind === 'delivered' && outcome.as === 'steering') expect(outcome.turn).toBe(1)
    else expect(outcome).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 2 })
    const as = outcome.kind === 'delivered' ? outcome.as : 'other'
    seen[as] = (seen[as] ?? 0) + 1
    expect(carrying(agent.session.events, id)).toHaveLength(1)
    await release()
  }
  // Both sides of the race happen across the rounds (seen), but neither is required by timing.
  await client.close()
}, 120_000)
