/**
 * R78 on PostgreSQL: forkSession between two stored sessions, and from a file session into a
 * stored one; an owner started on the fork continues it, and the source never sees its sends.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Agent,
  createAgent,
  ForkIncompleteError,
  fileStore,
  forkSession,
  InvalidInputError,
  type Message,
  type ModelEvent,
  type SessionStore,
} from '../../../src/index.js'
import {
  applyRemoteSends,
  connectSessions,
  migrate,
  openPostgresSession,
  type PostgresSessionStore,
} from '../../../src/postgres.js'
import { committedEvents } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
const root = mkdtempSync(join(tmpdir(), 'steerable-pg-fork-'))
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(async () => {
  await db.drop()
  rmSync(root, { recursive: true, force: true })
})

/** Answers each prompt with `re:<prompt>`. */
const echoAgent = (store: SessionStore): Agent =>
  createAgent({
    store,
    model: (req): ModelEvent[] => {
      const said = req.messages.at(-1)?.content[0]
      return [
        { type: 'text', text: `re:${said?.type === 'text' ? said.text : '?'}` },
        { type: 'finish', reason: 'stop' },
      ]
    },
  })

/** Runs `prompts` as turns on `store`; `messagesAt[n]` is `session.messages()` after turn n. */
const runTurns = async (store: SessionStore, prompts: readonly string[]) => {
  const agent = echoAgent(store)
  const messagesAt: (readonly Message[])[] = [agent.session.messages()]
  for (const prompt of prompts) {
    agent.followup(prompt)
    await agent.whenIdle()
    messagesAt.push(agent.session.messages())
  }
  await agent.dispose()
  return messagesAt
}

const owned = async (sessionId: string): Promise<PostgresSessionStore> => {
  const store = await openPostgresSession(db.pool, sessionId, { pollMs: 100 })
  await store.takeLease()
  return store
}

/** An owner on `sessionId` that applies remote sends, as a worker drives a session (R57). */
const ownFork = async (sessionId: string) => {
  const store = await owned(sessionId)
  const agent = echoAgent(store)
  const feed = applyRemoteSends(agent, store)
  return {
    agent,
    release: async () => {
      feed.unsubscribe()
      await agent.dispose()
    },
  }
}

const turnStarts = (events: readonly { type: string; data: unknown }[]) =>
  events.filter((e) => e.type === 'turn/start').map((e) => (e.data as { turn: number }).turn)

describe('R78: forkSession on PostgreSQL', () => {
  it('R78: PostgreSQL to PostgreSQL: the fork holds the source up to the turn, and an owner continues it', async () => {
    const messagesAt = await runTurns(await owned('pg-source'), ['one', 'two'])
    const sourceEvents = await committedEvents(db.pool, 'pg-source')
    // The source is read without its lease; the target's lease lets the copy be written.
    const from = await openPostgresSession(db.pool, 'pg-source')
    const to = await owned('pg-fork')
    const result = await forkSession(from, to, { atTurn: 1 })
    await to.release()
    const end = sourceEvents.findIndex((e) => e.type === 'turn/end' && e.data.turn === 1)
    expect(await committedEvents(db.pool, 'pg-fork')).toEqual([
      ...sourceEvents.slice(0, end + 1),
      { seq: end + 2, type: 'fork', data: { from: 'pg-source', atTurn: 1 } },
    ])
    expect(result).toMatchObject({ from: 'pg-source', atTurn: 1, copied: end + 1 })

    const owner = await ownFork('pg-fork')
    expect(owner.agent.session.messages()).toEqual(messagesAt[1])
    const client = connectSessions(db.pool, { pollMs: 100 })
    const id = await client.session('pg-fork').followup('fork two')
    expect(await client.session('pg-fork').outcome(id)).toMatchObject({ kind: 'delivered', turn: 2 })
    await owner.agent.whenIdle()
    await owner.release()
    await client.close()
    const forked = await committedEvents(db.pool, 'pg-fork')
    expect(turnStarts(forked)).toEqual([1, 2])
    expect(JSON.stringify(forked)).toContain('re:fork two')
    expect(await committedEvents(db.pool, 'pg-source')).toEqual(sourceEvents)
  })

  it('R78: a file session into PostgreSQL; the file is unchanged and an owner continues the fork', async () => {
    const path = join(root, 'source.jsonl')
    const messagesAt = await runTurns(fileStore(path), ['one', 'two'])
    const bytes = readFileSync(path)
    const from = fileStore(path)
    const to = await owned('from-file')
    const result = await forkSession(from, to)
    from.close?.()
    await to.release()
    expect(result.event.data).toEqual({ from: resolve(path), atTurn: 2 })
    expect(await committedEvents(db.pool, 'from-file')).toEqual([...from.load(), result.event])

    const owner = await ownFork('from-file')
    expect(owner.agent.session.messages()).toEqual(messagesAt[2])
    owner.agent.followup('three')
    await owner.agent.whenIdle()
    await owner.release()
    expect(turnStarts(await committedEvents(db.pool, 'from-file'))).toEqual([1, 2, 3])
    expect(readFileSync(path).equals(bytes)).toBe(true)
  })

  it('R78: a target without its lease refuses the copy: ForkIncompleteError, and nothing is stored', async () => {
    await runTurns(await owned('lease-source'), ['one'])
    const from = await openPostgresSession(db.pool, 'lease-source')
    const to = await openPostgresSession(db.pool, 'lease-fork')
    const forking = forkSession(from, to)
    await expect(forking).rejects.toBeInstanceOf(ForkIncompleteError)
    await expect(forking).rejects.toThrow(/refused the copy .*call store\.takeLease\(\)/)
    expect(await committedEvents(db.pool, 'lease-fork')).toEqual([])
  })

  it('R78: a stored session that holds events, or the source session itself, is refused and stays as it was', async () => {
    await runTurns(await owned('full-source'), ['one'])
    const before = await committedEvents(db.pool, 'full-source')
    const from = await openPostgresSession(db.pool, 'full-source')
    const itself = await owned('full-source')
    await expect(forkSession(from, itself)).rejects.toThrow(/to: is the source session/)
    await itself.release()
    await runTurns(await owned('full-target'), ['other'])
    const full = await owned('full-target')
    const held = full.load().length
    const forking = forkSession(from, full)
    await expect(forking).rejects.toBeInstanceOf(InvalidInputError)
    await expect(forking).rejects.toThrow(`to: already holds ${held} events`)
    await full.release()
    expect(await committedEvents(db.pool, 'full-target')).toHaveLength(held)
    expect(await committedEvents(db.pool, 'full-source')).toEqual(before)
  })

  it('R78: a stored session where a remote send already waits is refused: the fork would run it', async () => {
    await runTurns(await owned('early-source'), ['one'])
    const client = connectSessions(db.pool)
    await client.session('early-fork').followup('sent before the fork')
    await client.close()
    const from = await openPostgresSession(db.pool, 'early-source')
    const to = await owned('early-fork')
    await expect(forkSession(from, to)).rejects.toThrow(/to: its inbox journal already holds 1 records/)
    await to.release()
    expect(await committedEvents(db.pool, 'early-fork')).toEqual([])
  })
})
