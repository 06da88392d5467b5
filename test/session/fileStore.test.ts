/**
 * `fileStore(path)` on bad and interrupted logs (R35, R37), the writer lock, history vs store
 * precedence, resume, and durability of `dispose()` / `session.flush()`.
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  alreadyFlushed,
  createAgent,
  fileStore,
  InvalidInputError,
  memoryStore,
  projectMessages,
  type SessionEvent,
  SessionLockedError,
  SessionLogError,
  type SessionStore,
} from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { record } from '../support/agents.js'
import { runChild } from '../support/childProcesses.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-filestore-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const logAt = (name = 'session.jsonl') => join(dir, name)
const lines = (events: readonly unknown[]) => events.map((e) => `${JSON.stringify(e)}\n`).join('')
const readEvents = (path: string): SessionEvent[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as SessionEvent)

/** A closed two-turn session as a file store would hold it. */
const SESSION: SessionEvent[] = [
  { seq: 1, type: 'turn/start', data: { turn: 1, trigger: { kind: 'message', source: { kind: 'user' } } } },
  {
    seq: 2,
    type: 'user/message',
    data: { content: [{ type: 'text', text: 'q1' }], source: { kind: 'user' } },
  },
  { seq: 3, type: 'step/start', data: { turn: 1, step: 1 } },
  { seq: 4, type: 'assistant/message', data: { turn: 1, step: 1, content: [{ type: 'text', text: 'a1' }] } },
  { seq: 5, type: 'step/end', data: { turn: 1, step: 1 } },
  { seq: 6, type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
  { seq: 7, type: 'turn/start', data: { turn: 2, trigger: { kind: 'message', source: { kind: 'user' } } } },
  {
    seq: 8,
    type: 'user/message',
    data: { content: [{ type: 'text', text: 'q2' }], source: { kind: 'user' } },
  },
  { seq: 9, type: 'step/start', data: { turn: 2, step: 1 } },
  { seq: 10, type: 'assistant/message', data: { turn: 2, step: 1, content: [{ type: 'text', text: 'a2' }] } },
  { seq: 11, type: 'step/end', data: { turn: 2, step: 1 } },
  { seq: 12, type: 'turn/end', data: { turn: 2, reason: { kind: 'completed' } } },
]
const text = (t: string) => [{ type: 'text' as const, text: t }]

/** Opening must throw SessionLogError naming file and line; the bytes stay as they were. */
const expectLogError = (path: string, line: number, detail: RegExp) => {
  const before = readFileSync(path)
  let error: unknown
  try {
    fileStore(path)
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(SessionLogError)
  const e = error as SessionLogError
  expect(e.file).toBe(path)
  expect(e.line).toBe(line)
  expect(e.message).toContain(`${path}:${line}`)
  expect(e.message).toMatch(detail)
  expect(readFileSync(path).equals(before)).toBe(true)
  // The lock taken for the open attempt was released.
  expect(existsSync(`${path}.lock`)).toBe(false)
}

describe('fileStore: opening logs (R35, R37)', () => {
  it('R35: a new path starts an empty log; events are written one JSON line each, in seq order', async () => {
    const path = logAt()
    const store = fileStore(path)
    expect(store.load()).toEqual([])
    expect(store.warnings).toEqual([])
    const agent = createAgent({ model: scriptedModel(['a1']), store })
    agent.followup('q1')
    await agent.whenIdle()
    await agent.dispose()
    const raw = readFileSync(path, 'utf8')
    expect(raw.endsWith('\n')).toBe(true)
    expect(readEvents(path)).toEqual(agent.session.events)
    expect(readEvents(path).map((e) => e.seq)).toEqual(agent.session.events.map((_, i) => i + 1))
  })

  it('R40, R29: after dispose() on a healthy file store, session.flush() resolves without asking the closed store', async () => {
    const path = logAt()
    const agent = createAgent({ model: scriptedModel(['a1']), store: fileStore(path) })
    agent.followup('q1')
    await agent.whenIdle()
    await agent.dispose()
    await expect(agent.session.flush()).resolves.toBeUndefined()
    expect(readEvents(path)).toEqual(agent.session.events)
  })

  it('R37: a torn last line is cut off, listed in warnings, the file repaired, and the agent resumes', async () => {
    const path = logAt()
    const good = lines(SESSION)
    writeFileSync(path, `${good}{"seq":13,"type":"turn/sta`)
    const store = fileStore(path)
    expect(store.warnings).toHaveLength(1)
    expect(store.warnings[0]).toContain(`${path}:13`)
    expect(store.load()).toEqual(SESSION)
    // Repaired on disk at open: only the valid lines remain.
    expect(readFileSync(path, 'utf8')).toBe(good)
    const model = scriptedModel(['a3'])
    const agent = createAgent({ model, store })
    agent.followup('q3')
    await agent.whenIdle()
    expect(model.requests[0]?.turn).toBe(3)
    await agent.dispose()
    const after = readEvents(path)
    expect(after.slice(0, SESSION.length)).toEqual(SESSION)
    expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => i + 1))
    expect(after[SESSION.length]).toMatchObject({ seq: 13, type: 'turn/start', data: { turn: 3 } })
    // And it opens cleanly afterwards.
    const again = fileStore(path)
    expect(again.warnings).toEqual([])
    expect(again.load()).toEqual(after)
    again.close?.()
  })

  it('R37: a complete last line missing its newline is kept (not torn), and the next append starts a new line', async () => {
    const path = logAt()
    writeFileSync(path, lines(SESSION).slice(0, -1))
    const store = fileStore(path)
    expect(store.warnings).toEqual([])
    expect(store.load()).toEqual(SESSION)
    const agent = createAgent({ model: scriptedModel(['a3']), store })
    agent.followup('q3')
    await agent.whenIdle()
    await agent.dispose()
    expect(readEvents(path)).toEqual(agent.session.events)
  })

  it('R37: a complete last line without newline that is JSON but not a valid event is an error, not cut off', () => {
    const path = logAt()
    const wrongSeq = { ...SESSION[0], seq: 99 }
    writeFileSync(path, `${lines(SESSION)}${JSON.stringify(wrongSeq)}`)
    expectLogError(path, 13, /seq 99 out of order \(expected 13\)/)
    const unknownType = { seq: 13, type: 'note/added', data: {} }
    writeFileSync(path, `${lines(SESSION)}${JSON.stringify(unknownType)}`)
    expectLogError(path, 13, /invalid event/)
    writeFileSync(path, `${lines(SESSION)}[]`)
    expectLogError(path, 13, /invalid event/)
  })

  it('R37: lines are read in chunks: multi-byte text across chunk boundaries survives, a torn tail is cut at its exact byte', () => {
    const path = logAt()
    // About 3.5 MiB of 2-, 3- and 4-byte characters: lines cross the reader's chunk boundaries
    // at every offset within a character.
    const big = (n: number) => 'é€😀'.repeat(n)
    const events: SessionEvent[] = [
      { seq: 1, type: 'user/message', data: { content: text(big(130_001)), source: { kind: 'user' } } },
      {
        seq: 2,
        type: 'user/message',
        data: { content: text(`x${big(130_002)}`), source: { kind: 'user' } },
      },
      {
        seq: 3,
        type: 'user/message',
        data: { content: text(`xy${big(130_003)}`), source: { kind: 'user' } },
      },
    ]
    const good = lines(events)
    writeFileSync(path, `${good}{"seq":4,"type":"user/message","data":{"content":[{"type":"text","text":"😀`)
    const store = fileStore(path)
    expect(store.load()).toEqual(events)
    expect(store.warnings).toHaveLength(1)
    expect(readFileSync(path).equals(Buffer.from(good))).toBe(true)
    store.close?.()
  })

  it('R37: invalid JSON in the middle throws SessionLogError naming file and line; bytes untouched; lock released', () => {
    const path = logAt()
    const rows = lines(SESSION).split('\n')
    rows[4] = '{"seq":5,"type":"step/end","data":{"turn":1,"step":1}' // missing brace, line 5
    writeFileSync(path, rows.join('\n'))
    expectLogError(path, 5, /invalid JSON/)
    // After fixing the line, the log opens.
    writeFileSync(path, lines(SESSION))
    const store = fileStore(path)
    expect(store.load()).toEqual(SESSION)
    store.close?.()
  })

  it('R37: a torn line that is not the last one is an error, not a repair', () => {
    const path = logAt()
    writeFileSync(path, `${lines(SESSION.slice(0, 3))}{"seq":4,"ty\n${lines(SESSION.slice(3))}`)
    expectLogError(path, 4, /invalid JSON/)
  })

  it('R37: seq out of order is a SessionLogError on the offending line', () => {
    const path = logAt()
    const events = SESSION.map((e) => (e.seq === 7 ? { ...e, seq: 8 } : e))
    writeFileSync(path, lines(events))
    expectLogError(path, 7, /seq 8 out of order \(expected 7\)/)
  })

  it('R37: a duplicated line (seq repeated) is a SessionLogError', () => {
    const path = logAt()
    writeFileSync(path, lines([...SESSION.slice(0, 5), SESSION[4], ...SESSION.slice(5)]))
    expectLogError(path, 6, /seq 5 out of order/)
  })

  it('R37: an unknown event type is a SessionLogError', () => {
    const path = logAt()
    const events: unknown[] = [...SESSION]
    events[2] = { seq: 3, type: 'context/message', data: { content: text('x') } }
    writeFileSync(path, lines(events))
    expectLogError(path, 3, /invalid event/)
  })

  it('R37: an event with a malformed payload (unknown key, bad turn) is a SessionLogError', () => {
    const path = logAt()
    const events: unknown[] = [...SESSION]
    events[2] = { seq: 3, type: 'step/start', data: { turn: 0, step: 1 } }
    writeFileSync(path, lines(events))
    expectLogError(path, 3, /invalid event/)
    events[2] = { seq: 3, type: 'step/start', data: { turn: 1, step: 1, extra: true } }
    writeFileSync(path, lines(events))
    expectLogError(path, 3, /invalid event/)
  })

  it('R37: a blank line in the middle is a SessionLogError', () => {
    const path = logAt()
    writeFileSync(path, `${lines(SESSION.slice(0, 2))}\n${lines(SESSION.slice(2))}`)
    expectLogError(path, 3, /invalid JSON/)
  })
})

describe('fileStore: one writer per file (R29, R35)', () => {
  it('R35: a second writer in the same process gets SessionLockedError; works again after dispose()', async () => {
    const path = logAt()
    const store = fileStore(path)
    const agent = createAgent({ model: scriptedModel(['a1']), store })
    agent.followup('q1')
    await agent.whenIdle()
    let error: unknown
    try {
      fileStore(path)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(SessionLockedError)
    const locked = error as SessionLockedError
    expect(locked.file).toBe(path)
    expect(locked.pid).toBe(process.pid)
    expect(locked.message).toContain(path)
    expect(locked.message).toContain(String(process.pid))
    expect(locked.message).toMatch(/dispose/)
    // The failed open changed nothing: the first agent still writes.
    agent.followup('q2')
    await agent.whenIdle()
    await agent.dispose()
    expect(existsSync(`${path}.lock`)).toBe(false)
    const second = fileStore(path)
    expect(second.load()).toEqual(agent.session.events)
    second.close?.()
  })

  /** The lock file's owner line: pid, start time (or `-`), token. */
  const lockOwner = (path: string) => readFileSync(`${path}.lock`, 'utf8').split(' ')

  it('R35: a stale lock whose pid is dead is taken over', () => {
    const path = logAt()
    writeFileSync(path, lines(SESSION))
    const dead = runChild(process.execPath, ['-e', ''], { deadlineMs: 30_000 }).pid
    expect(dead).toBeGreaterThan(0)
    writeFileSync(`${path}.lock`, String(dead))
    const store = fileStore(path)
    expect(store.load()).toEqual(SESSION)
    expect(lockOwner(path)[0]).toBe(String(process.pid))
    store.close?.()
    expect(existsSync(`${path}.lock`)).toBe(false)
    expect(readdirSync(dir)).toEqual(['session.jsonl'])
  })

  it('R35: a lock naming a live pid with another start time (the pid was reused) is taken over', () => {
    const path = logAt()
    writeFileSync(`${path}.lock`, `${process.pid} 1 ${'0'.repeat(32)}\n`)
    const store = fileStore(path)
    const [pid, start, token] = lockOwner(path)
    expect(pid).toBe(String(process.pid))
    expect(start).not.toBe('1')
    expect(token).not.toBe(`${'0'.repeat(32)}\n`)
    store.close?.()
    expect(existsSync(`${path}.lock`)).toBe(false)
  })

  it('R35: a lock file naming no owner is held for a moment (an older writer mid-way), then taken over', () => {
    const path = logAt()
    writeFileSync(`${path}.lock`, '')
    expect(() => fileStore(path)).toThrow(SessionLockedError)
    expect(() => fileStore(path)).toThrow(/try again in a moment/)
    const past = new Date(Date.now() - 10_000)
    utimesSync(`${path}.lock`, past, past)
    const store = fileStore(path)
    expect(lockOwner(path)[0]).toBe(String(process.pid))
    store.close?.()
  })

  it('R35: close() is idempotent and releases only its own lock', () => {
    const path = logAt()
    const first = fileStore(path)
    first.close?.()
    const second = fileStore(path)
    first.close?.() // must not remove the second writer's lock
    expect(existsSync(`${path}.lock`)).toBe(true)
    expect(() => fileStore(path)).toThrow(SessionLockedError)
    second.close?.()
  })
})

describe('history and resume (R37)', () => {
  it('R37: a non-empty store wins over history', async () => {
    const path = logAt()
    writeFileSync(path, lines(SESSION))
    const other: SessionEvent[] = [
      { seq: 1, type: 'user/message', data: { content: text('from history'), source: { kind: 'user' } } },
    ]
    const model = scriptedModel(['a3'])
    const agent = createAgent({ model, store: fileStore(path), history: other })
    expect(agent.session.events).toEqual(SESSION)
    agent.followup('q3')
    await agent.whenIdle()
    expect(model.requests[0]?.turn).toBe(3)
    expect(model.requests[0]?.messages.map((m) => m.content[0])).toEqual([
      ...['q1', 'a1', 'q2', 'a2', 'q3'].map((t) => ({ type: 'text', text: t })),
    ])
    await agent.dispose()
    expect(readEvents(path).slice(0, SESSION.length)).toEqual(SESSION)
  })

  it('R37: a non-empty store wins over an invalid history too (history is not even read)', () => {
    const store = memoryStore(SESSION)
    const agent = createAgent({
      model: scriptedModel([]),
      store,
      history: [{ seq: 5 } as unknown as SessionEvent],
    })
    expect(agent.session.events).toEqual(SESSION)
  })

  it('R37: an empty store gets the history written into it (durable after flush)', async () => {
    const path = logAt()
    const store = fileStore(path)
    const agent = createAgent({ model: scriptedModel(['a3']), store, history: SESSION })
    expect(store.load()).toEqual(SESSION)
    await agent.session.flush()
    expect(readEvents(path)).toEqual(SESSION)
    agent.followup('q3')
    await agent.whenIdle()
    await agent.dispose()
    const after = readEvents(path)
    expect(after.slice(0, SESSION.length)).toEqual(SESSION)
    expect(after[SESSION.length]).toMatchObject({ type: 'turn/start', data: { turn: 3 } })
  })

  it('R37: a custom store’s load() output is validated like the file store’s, before anything happens', () => {
    /** A store of one's own whose `load()` hands back `events`; records whatever is asked of it. */
    const customStore = (events: unknown) => {
      const calls: string[] = []
      const store: SessionStore = {
        load: () => events as SessionEvent[],
        append: () => {
          calls.push('append')
        },
        flush: () => {
          calls.push('flush')
          return alreadyFlushed
        },
      }
      return { store, calls }
    }
    const refused = (events: unknown, message: RegExp) => {
      const { store, calls } = customStore(events)
      let error: unknown
      try {
        createAgent({ model: scriptedModel([]), store, history: SESSION })
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(InvalidInputError)
      expect((error as Error).message).toMatch(message)
      expect(calls).toEqual([])
      return error as InvalidInputError
    }
    const reordered = SESSION.map((e) => (e.seq === 4 ? { ...e, seq: 5 } : e))
    const error = refused(
      reordered,
      /^createAgent\(\): options\.store\.load\(\)\[3\]: seq 5 out of order \(expected 4\)/,
    )
    expect(error.issues[0]?.path).toEqual(['options', 'store', 'load()', 3])
    refused([SESSION[0], { seq: 2, type: 'note', data: {} }], /options\.store\.load\(\)\[1\]: .*/)
    refused([{ ...SESSION[0], data: { turn: 0 } }], /options\.store\.load\(\)\[0\]/)
    refused('not events', /options\.store\.load\(\): expected an array/)
    const revoked = Proxy.revocable([], {})
    revoked.revoke()
    refused(revoked.proxy, /options\.store\.load\(\): reading it threw/)
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom')
        },
      },
    )
    refused([throwing], /options\.store\.load\(\): reading it threw/)
    // A valid load() is taken as it is.
    const { store } = customStore(SESSION)
    expect(createAgent({ model: scriptedModel([]), store }).session.events).toEqual(SESSION)
  })

  it('R37: createAgent({history}) with an invalid event throws InvalidInputError at options.history[i]', () => {
    const bad: unknown[] = [...SESSION]
    bad[3] = { seq: 4, type: 'assistant/message', data: { turn: 1, step: 1, content: 'not an array' } }
    let error: unknown
    try {
      createAgent({ model: scriptedModel([]), history: bad as SessionEvent[] })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InvalidInputError)
    const e = error as InvalidInputError
    expect(e.issues[0]?.path).toEqual(['options', 'history', 3])
    expect(e.message).toContain('options.history[3]')
  })

  it('R37: createAgent({history}) with seq out of order or an unknown type is refused the same way', () => {
    const reordered = SESSION.map((e) => (e.seq === 2 ? { ...e, seq: 3 } : e))
    expect(() => createAgent({ model: scriptedModel([]), history: reordered })).toThrow(
      /options\.history\[1\].*seq 3 out of order/,
    )
    const unknownType = [{ seq: 1, type: 'note', data: {} }] as unknown as SessionEvent[]
    expect(() => createAgent({ model: scriptedModel([]), history: unknownType })).toThrow(InvalidInputError)
    expect(() =>
      createAgent({ model: scriptedModel([]), history: 'x' as unknown as SessionEvent[] }),
    ).toThrow(/options\.history/)
  })

  it('R37: resume from history continues turn numbers and messages', async () => {
    const model = scriptedModel(['a3'])
    const agent = createAgent({ model, history: SESSION })
    const rec = record(agent)
    expect(agent.session.messages()).toEqual(projectMessages(SESSION))
    agent.followup('q3')
    await agent.whenIdle()
    expect(rec.log).toContain('turn/start(3)')
    expect(rec.log).toContain('settled(3,completed)')
    expect(agent.session.events.slice(0, SESSION.length)).toEqual(SESSION)
    expect(agent.session.events.map((e) => e.seq)).toEqual(agent.session.events.map((_, i) => i + 1))
    expect(model.requests[0]?.messages).toEqual([
      ...projectMessages(SESSION),
      { role: 'user', content: text('q3') },
    ])
  })

  it('R37: resume on a fileStore continues turn numbers and messages across agents', async () => {
    const path = logAt()
    const first = createAgent({ model: scriptedModel(['a1', 'a2']), store: fileStore(path) })
    first.followup('q1')
    first.followup('q2')
    await first.whenIdle()
    await first.dispose()
    const model = scriptedModel(['a3'])
    const second = createAgent({ model, store: fileStore(path) })
    expect(second.session.events).toEqual(first.session.events)
    expect(second.session.messages()).toEqual(first.session.messages())
    second.followup('q3')
    await second.whenIdle()
    expect(model.requests[0]?.turn).toBe(3)
    expect(model.requests[0]?.messages.map((m) => m.content[0])).toEqual(
      ['q1', 'a1', 'q2', 'a2', 'q3'].map((t) => ({ type: 'text', text: t })),
    )
    await second.dispose()
    expect(readEvents(path)).toEqual(second.session.events)
  })

  it('R37: an interrupted turn in the log is closed as aborted on resume (step/end, turn/end); numbering continues', async () => {
    const path = logAt()
    const interrupted = SESSION.slice(0, 9) // turn 2 opened, step 2.1 open, no end
    writeFileSync(path, lines(interrupted))
    const model = scriptedModel(['a3'])
    const agent = createAgent({ model, store: fileStore(path) })
    expect(agent.session.events.slice(interrupted.length)).toEqual([
      { seq: 10, type: 'step/end', data: { turn: 2, step: 1 } },
      { seq: 11, type: 'turn/end', data: { turn: 2, reason: { kind: 'aborted' } } },
    ])
    agent.followup('q3')
    await agent.whenIdle()
    expect(model.requests[0]?.turn).toBe(3)
    await agent.dispose()
    const after = readEvents(path)
    expect(after).toEqual(agent.session.events)
    expect(after.slice(9, 12).map((e) => e.type)).toEqual(['step/end', 'turn/end', 'turn/start'])
  })

  it('R37: an interrupted turn with no open step gets only turn/end aborted', () => {
    const agent = createAgent({ model: scriptedModel([]), history: SESSION.slice(0, 8) })
    expect(agent.session.events.slice(8)).toEqual([
      { seq: 9, type: 'turn/end', data: { turn: 2, reason: { kind: 'aborted' } } },
    ])
  })
})

describe('durability (R29, R36)', () => {
  it('R29: dispose() flushes everything and releases the lock', async () => {
    const path = logAt()
    const store = fileStore(path)
    const agent = createAgent({ model: scriptedModel(['a1']), store })
    agent.followup('q1')
    await agent.whenIdle()
    agent.inject('a fact while idle')
    await agent.dispose()
    expect(readEvents(path)).toEqual(agent.session.events)
    expect(agent.session.events.at(-1)).toMatchObject({ type: 'user/message' })
    expect(existsSync(`${path}.lock`)).toBe(false)
    const reopened = fileStore(path)
    expect(reopened.load()).toEqual(agent.session.events)
    reopened.close?.()
  })

  it('R29: dispose() during an open turn writes its turn/end (disposed) and releases the lock', async () => {
    const path = logAt()
    const agent = createAgent({ model: scriptedModel([{ hang: true }]), store: fileStore(path) })
    const rec = record(agent)
    agent.followup('q1')
    await rec.when('step/start(1.1)')
    await agent.dispose()
    const after = readEvents(path)
    expect(after).toEqual(agent.session.events)
    expect(after.at(-1)).toMatchObject({ type: 'turn/end', data: { turn: 1, reason: { kind: 'disposed' } } })
    expect(existsSync(`${path}.lock`)).toBe(false)
  })

  it('R36: session.flush() resolves when the file holds every event appended so far (mid-turn)', async () => {
    const path = logAt()
    const agent = createAgent({ model: scriptedModel([{ hang: true }]), store: fileStore(path) })
    const rec = record(agent)
    agent.followup('q1')
    await rec.when('step/start(1.1)')
    await agent.session.flush()
    expect(readEvents(path)).toEqual(agent.session.events)
    expect(readEvents(path).map((e) => e.type)).toEqual(['turn/start', 'user/message', 'step/start'])
    await agent.dispose()
  })

  it('R36, V6: the next turn is admitted only after the previous turn is in the file', async () => {
    const path = logAt()
    const seen: SessionEvent[][] = []
    const model = scriptedModel([
      'a1',
      (request) => {
        seen.push(readEvents(path))
        expect(request.turn).toBe(2)
        return [{ type: 'text', text: 'a2' }]
      },
    ])
    const agent = createAgent({ model, store: fileStore(path) })
    agent.followup('q1')
    agent.followup('q2')
    await agent.whenIdle()
    await agent.dispose()
    const firstTurnEnd = agent.session.events.findIndex((e) => e.type === 'turn/end')
    // At turn 2's request, turn 1 (through its turn/end) was already on disk.
    expect(seen[0]?.slice(0, firstTurnEnd + 1)).toEqual(agent.session.events.slice(0, firstTurnEnd + 1))
  })

  it('R36: concurrent session.flush() calls all resolve with the file complete', async () => {
    const path = logAt()
    const agent = createAgent({ model: scriptedModel(['a1']), store: fileStore(path) })
    agent.followup('q1')
    await agent.whenIdle()
    // Three flushes while an idle inject's own flush is in flight: the store serializes them.
    const many = Promise.all([agent.session.flush(), agent.session.flush(), agent.session.flush()])
    agent.inject('x')
    await many
    await agent.session.flush()
    expect(readEvents(path)).toEqual(agent.session.events)
    await agent.dispose()
  })
})
