/** R78 through the public API: a fork copies a session's log up to a turn, and goes on as a new session. */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  type Agent,
  type AgentMessageId,
  createAgent,
  type FileStore,
  ForkIncompleteError,
  fileStore,
  forkSession,
  InvalidInputError,
  type Message,
  type ModelEvent,
  memoryStore,
  type SessionEvent,
  type SessionStore,
} from '../../src/index.js'
import { blockWrites } from '../support/blockWrites.js'
import { add } from '../support/inboxRecords.js'

const root = mkdtempSync(join(tmpdir(), 'steerable-fork-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let files = 0
const newPath = () => join(root, `s${++files}.jsonl`)

const texts = (messages: readonly Message[]) =>
  messages.map((m) => `${m.role}:${m.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('')}`)

/** Answers each prompt with `re:<prompt>`. */
const echoAgent = (store: SessionStore): Agent =>
  createAgent({
    store,
    model: (req): ModelEvent[] => {
      const lastUser = [...req.messages].reverse().find((m) => m.role === 'user')
      const said = lastUser?.content[0]?.type === 'text' ? lastUser.content[0].text : '?'
      return [
        { type: 'text', text: `re:${said}` },
        { type: 'finish', reason: 'stop' },
      ]
    },
  })

const turnStarts = (events: readonly SessionEvent[]) =>
  events.filter((e) => e.type === 'turn/start').map((e) => e.data.turn)

/** A file session of `prompts.length` turns; `messagesAt[n]` is `session.messages()` after turn n. */
const sourceSession = async (prompts: readonly string[] = ['one', 'two', 'three']) => {
  const path = newPath()
  const agent = echoAgent(fileStore(path))
  const messagesAt: (readonly Message[])[] = [agent.session.messages()]
  const ids: AgentMessageId[] = []
  for (const prompt of prompts) {
    ids.push(agent.followup(prompt))
    await agent.whenIdle()
    messagesAt.push(agent.session.messages())
  }
  const usage = agent.usage
  await agent.dispose()
  return { path, messagesAt, ids, usage, bytes: readFileSync(path) }
}

describe('R78: forkSession', () => {
  it('R78: a fork at a turn holds the source messages of that turn, and goes on as a new session', async () => {
    const source = await sourceSession()
    const from = fileStore(source.path)
    const toPath = newPath()
    const to = fileStore(toPath)
    const result = await forkSession(from, to, { atTurn: 2 })
    from.close?.()
    const copied = from.load().filter((e) => e.seq <= result.copied)
    expect(copied.at(-1)).toMatchObject({ type: 'turn/end', data: { turn: 2 } })
    expect(result).toMatchObject({ from: resolve(source.path), atTurn: 2, copied: copied.length })
    expect(result.event).toEqual({
      seq: copied.length + 1,
      type: 'fork',
      data: { from: resolve(source.path), atTurn: 2 },
    })
    // The copy is the source's own events, seqs kept, then the fork event: already durable.
    const lines = readFileSync(toPath, 'utf8').trimEnd().split('\n')
    expect(lines.slice(0, -1)).toEqual(copied.map((e) => JSON.stringify(e)))
    expect(JSON.parse(lines.at(-1) as string)).toEqual(result.event)

    const fork = echoAgent(to)
    expect(fork.session.messages()).toEqual(source.messagesAt[2])
    // The copied log is the fork's history: its prompts were delivered there, its requests used.
    expect(await fork.outcome(source.ids[1] as AgentMessageId)).toMatchObject({ kind: 'delivered', turn: 2 })
    await expect(fork.outcome(source.ids[2] as AgentMessageId)).rejects.toThrow(/unknown id/)
    expect(fork.usage.requests).toBe(2)
    expect(source.usage.requests).toBe(3)
    fork.followup('fork three')
    await fork.whenIdle()
    expect(turnStarts(fork.session.events)).toEqual([1, 2, 3])
    expect(texts(fork.session.messages()).slice(-2)).toEqual(['user:fork three', 'assistant:re:fork three'])
    await fork.dispose()
    // The source was only read: its log is the same bytes, and holds none of the fork's sends.
    expect(readFileSync(source.path).equals(source.bytes)).toBe(true)
    expect(readFileSync(source.path, 'utf8')).not.toContain('fork three')
  })

  it('R78: without atTurn every event is copied, and the next turn is numbered after the last', async () => {
    const source = await sourceSession()
    const from = fileStore(source.path)
    const to = memoryStore()
    const result = await forkSession(from, to)
    from.close?.()
    expect(result.atTurn).toBe(3)
    expect(to.load()).toEqual([...from.load(), result.event])
    const fork = echoAgent(to)
    expect(fork.session.messages()).toEqual(source.messagesAt[3])
    fork.followup('four')
    await fork.whenIdle()
    expect(turnStarts(fork.session.events)).toEqual([1, 2, 3, 4])
    expect(readFileSync(source.path).equals(source.bytes)).toBe(true)
  })

  it('R78: the inbox is not copied: a prompt parked in the source does not wait in the fork', async () => {
    const path = newPath()
    const agent = echoAgent(fileStore(path))
    agent.followup('one')
    await agent.whenIdle()
    agent.send('later', { target: 'next-turn', wakeup: false })
    await agent.dispose()
    const from = fileStore(path)
    expect(from.inbox.load().length).toBeGreaterThan(0)
    const to = fileStore(newPath())
    await forkSession(from, to)
    from.close?.()
    expect(to.inbox.load()).toEqual([])
    const fork = echoAgent(to)
    expect(fork.inbox.queue).toEqual([])
    expect(echoAgent(memoryStore(from.load())).session.messages()).toEqual(fork.session.messages())
    await fork.dispose()
  })

  it('R78: with a rollback in the source, the copy replays it; a turn rolled back later can still be forked at', async () => {
    const path = newPath()
    const agent = echoAgent(fileStore(path))
    for (const prompt of ['one', 'two', 'three']) {
      agent.followup(prompt)
      await agent.whenIdle()
    }
    const atThree = agent.session.messages()
    agent.rollback(1) // back to the end of turn 2
    const afterRollback = agent.session.messages()
    agent.followup('four')
    await agent.whenIdle()
    const atFour = agent.session.messages()
    agent.rollback(1)
    await agent.dispose()
    const from = fileStore(path)
    const forkAt = async (atTurn?: number) => {
      const to = memoryStore()
      const result = await forkSession(from, to, atTurn === undefined ? {} : { atTurn })
      return { result, messages: echoAgent(to).session.messages() }
    }
    expect((await forkAt(3)).messages).toEqual(atThree)
    expect((await forkAt(4)).messages).toEqual(atFour)
    expect(texts(atFour)).toEqual([
      'user:one',
      'assistant:re:one',
      'user:two',
      'assistant:re:two',
      'user:four',
      'assistant:re:four',
    ])
    // All of it: the trailing rollback went back to turn 2, and that is the turn forked at.
    const all = await forkAt()
    expect(all.messages).toEqual(afterRollback)
    expect(all.result.atTurn).toBe(2)
    from.close?.()
  })

  it('R78: with a compaction in the source, the fork replays it: the summary, then the kept tail', async () => {
    const path = newPath()
    const first = echoAgent(fileStore(path))
    first.followup('one')
    first.followup('two')
    await first.whenIdle()
    const events = first.session.events
    await first.dispose()
    // The event agent.compact() writes: turn 1 summarised, turn 2 kept.
    const keptFromSeq = (events.find((e) => e.type === 'turn/start' && e.data.turn === 2) as SessionEvent).seq
    const compacted = [
      ...events,
      {
        seq: events.length + 1,
        type: 'compaction',
        data: { upToSeq: events.length, keptFromSeq, summary: [{ type: 'text', text: 'they said one' }] },
      } as SessionEvent,
    ]
    const source = echoAgent(memoryStore(compacted))
    source.followup('three')
    await source.whenIdle()
    expect(texts(source.session.messages())[0]).toBe('user:they said one')
    const to = memoryStore()
    await forkSession(memoryStore(source.session.events), to, { sourceId: 'compacted', atTurn: 3 })
    expect(echoAgent(to).session.messages()).toEqual(source.session.messages())
  })
})

describe('R78: forkSession refuses bad input with InvalidInputError and changes nothing', () => {
  const twoTurns = async (): Promise<readonly SessionEvent[]> => {
    const agent = echoAgent(memoryStore())
    agent.followup('one')
    agent.followup('two')
    await agent.whenIdle()
    return agent.session.events
  }

  it.each([[0], [-1], [1.5], [Number.NaN], ['1'], [3], [null]])(
    'R78: atTurn %j is not a finished turn of the source',
    async (atTurn) => {
      const from = memoryStore(await twoTurns())
      const to = memoryStore()
      const forking = forkSession(from, to, { sourceId: 'a', atTurn: atTurn as number })
      await expect(forking).rejects.toBeInstanceOf(InvalidInputError)
      await expect(forking).rejects.toThrow(/options\.atTurn/)
      expect(to.load()).toEqual([])
    },
  )

  it('R78: a turn that never ended cannot be forked at; the message names the turns that can', async () => {
    const events = await twoTurns()
    const unfinished = events.slice(
      0,
      events.findIndex((e) => e.type === 'turn/end' && e.data.turn === 2),
    )
    const to = memoryStore()
    await expect(forkSession(memoryStore(unfinished), to, { sourceId: 'a', atTurn: 2 })).rejects.toThrow(
      'forkSession(): options.atTurn: the source has no turn 2 that ended; name one of its finished turns: 1',
    )
    expect(to.load()).toEqual([])
  })

  it('R78: a target that holds events, or inbox records, is refused', async () => {
    const events = await twoTurns()
    const from = memoryStore(events)
    const full = memoryStore(events.slice(0, 1))
    await expect(forkSession(from, full, { sourceId: 'a' })).rejects.toThrow(
      'forkSession(): to: already holds 1 events: fork into a new, empty store',
    )
    expect(full.load()).toHaveLength(1)
    const records = [add('waiting')]
    const waiting: SessionStore = {
      ...memoryStore(),
      load: () => [],
      append: () => {
        throw new Error('not reached')
      },
      flush: () => Promise.resolve(),
      inbox: { load: () => records, append: () => {} },
    }
    await expect(forkSession(from, waiting, { sourceId: 'a' })).rejects.toThrow(
      /to: its inbox journal already holds 1 records/,
    )
  })

  it('R78: the source itself, the same session through another store, an empty source, a source with no id', async () => {
    const events = await twoTurns()
    const from = memoryStore(events)
    await expect(forkSession(from, from, { sourceId: 'a' })).rejects.toThrow(/to: is the source session/)
    const named = (sessionId: string, initial: readonly SessionEvent[] = []) =>
      Object.assign(memoryStore(initial), { sessionId })
    const same = named('s')
    await expect(forkSession(named('s', events), same)).rejects.toThrow(/to: is the source session/)
    expect(same.load()).toEqual([])
    const to = memoryStore()
    await expect(forkSession(memoryStore(), to, { sourceId: 'a' })).rejects.toThrow(/from: holds no events/)
    await expect(forkSession(from, to)).rejects.toThrow(/options\.sourceId: the source store has no id/)
    await expect(forkSession({} as SessionStore, to)).rejects.toThrow(/from: expected a SessionStore/)
    expect(to.load()).toEqual([])
    // A store with an id of its own needs no sourceId.
    expect((await forkSession(named('s', events), to)).event.data).toEqual({ from: 's', atTurn: 2 })
  })
})

describe('R78: a copy the target cannot take is ForkIncompleteError', () => {
  it('R78: a flush that fails says the target may hold part of the copy', async () => {
    const source = await sourceSession(['one'])
    const from = fileStore(source.path)
    const toPath = newPath()
    const to: FileStore = fileStore(toPath)
    const unblock = blockWrites(toPath)
    try {
      const forking = forkSession(from, to)
      await expect(forking).rejects.toBeInstanceOf(ForkIncompleteError)
      await expect(forking).rejects.toMatchObject({ stage: 'flush' })
      await expect(forking).rejects.toThrow(/the target may hold part of it: delete it/)
    } finally {
      unblock()
      from.close?.()
    }
    expect(readFileSync(source.path).equals(source.bytes)).toBe(true)
  })

  it('R78: an append the target refuses says nothing was forked', async () => {
    const events = (await sourceSession(['one'])).path
    const from = fileStore(events)
    const refusing: SessionStore = {
      load: () => [],
      append: () => {
        throw new Error('the disk is read-only')
      },
      flush: () => Promise.resolve(),
    }
    const forking = forkSession(from, refusing)
    await expect(forking).rejects.toMatchObject({ name: 'ForkIncompleteError', stage: 'append' })
    await expect(forking).rejects.toThrow(/refused the copy \(the disk is read-only\); nothing was forked/)
    from.close?.()
  })
})
