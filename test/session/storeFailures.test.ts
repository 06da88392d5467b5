/**
 * Store failures (R36, R40, V6): a store whose `flush` or `append` fails for a while loses
 * nothing — every event reaches it once, in `seq` order — each failure is an `agent/error`,
 * `session.flush()` rejects while the store cannot write and resolves after it recovered, and the
 * agent keeps serving later sends.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defer, type ObservableInput, of, throwError } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  type AgentErrorEvent,
  alreadyFlushed,
  createAgent,
  fileStore,
  type SessionEvent,
  type SessionStore,
} from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { record } from '../support/agents.js'
import { blockWrites } from '../support/blockWrites.js'

/**
 * A store with a write-behind buffer like a real one: `append` buffers, a successful `flush`
 * moves the buffer to `durable`, a failed one keeps it. `failFlush`/`failAppend` count down the
 * calls that fail; `flushFailing`/`appendFailing` fail until switched off.
 */
const flakyStore = (options: { failFlush?: number; failAppend?: number; async?: boolean } = {}) => {
  const buffered: SessionEvent[] = []
  const durable: SessionEvent[] = []
  /** Every batch `append` accepted, for the exactly-once check. */
  const accepted: SessionEvent[] = []
  const control = {
    failFlush: options.failFlush ?? 0,
    failAppend: options.failAppend ?? 0,
    flushFailing: false,
    appendFailing: false,
    /** Called for each event before it is accepted; return true to throw. */
    failAppendOf: (_event: SessionEvent): boolean => false,
    flushErrors: 0,
    appendErrors: 0,
    closed: false,
  }
  const flushError = new Error('disk full')
  const appendError = new Error('store refused the batch')
  const store: SessionStore = {
    load: () => [],
    append: (batch) => {
      if (control.appendFailing || control.failAppend > 0 || batch.some(control.failAppendOf)) {
        if (control.failAppend > 0) control.failAppend--
        control.appendErrors++
        throw appendError
      }
      buffered.push(...batch)
      accepted.push(...batch)
    },
    flush: (): ObservableInput<void> => {
      const attempt = () => {
        if (control.flushFailing || control.failFlush > 0) {
          if (control.failFlush > 0) control.failFlush--
          control.flushErrors++
          return false
        }
        durable.push(...buffered.splice(0))
        return true
      }
      if (options.async)
        return new Promise<void>((resolve, reject) =>
          setTimeout(() => (attempt() ? resolve() : reject(flushError)), 1),
        )
      return defer(() => (attempt() ? of(undefined) : throwError(() => flushError)))
    },
    close: () => {
      control.closed = true
    },
  }
  return { store, durable, accepted, control, flushError, appendError }
}

/** A store that keeps what it is handed in `kept` and flushes with `flush`. */
const keepingStore = (flush: SessionStore['flush']) => {
  const kept: SessionEvent[] = []
  const store: SessionStore = {
    load: () => [],
    append: (events) => {
      kept.push(...events)
    },
    flush,
  }
  return { store, kept }
}

const errorsOf = (live: readonly { type: string }[]) =>
  live.filter((e): e is AgentErrorEvent => e.type === 'agent/error')

/** `events` is exactly the session: seq 1..n, each once, in order. */
const expectExactlyOnce = (events: readonly SessionEvent[], session: readonly SessionEvent[]) => {
  expect(events.map((e) => e.seq)).toEqual(session.map((_, i) => i + 1))
  expect(events).toEqual(session)
}

describe('R40: flush failures', () => {
  it('R36, R40: a flush that fails 3 times then recovers loses nothing; each failure is an agent/error', async () => {
    const { store, durable, accepted, control, flushError } = flakyStore({ failFlush: 3 })
    const agent = createAgent({ model: scriptedModel(['a1', 'a2', 'a3', 'a4']), store })
    const rec = record(agent)
    for (const q of ['q1', 'q2', 'q3', 'q4']) {
      agent.followup(q)
      await agent.whenIdle()
    }
    const errors = errorsOf(rec.live)
    expect(control.flushErrors).toBe(3)
    expect(errors.map((e) => [e.turn, e.step, e.error])).toEqual([
      [1, 0, flushError],
      [2, 0, flushError],
      [3, 0, flushError],
    ])
    // Not wedged: every turn ran and completed.
    for (const turn of [1, 2, 3, 4]) expect(rec.log).toContain(`settled(${turn},completed)`)
    // The 4th checkpoint wrote everything, once, in order.
    expectExactlyOnce(durable, agent.session.events)
    expectExactlyOnce(accepted, agent.session.events)
    await agent.dispose()
  })

  it('R36, R40: a flush() that throws synchronously fails the checkpoint like an erroring one; nothing is lost', async () => {
    const thrown = new Error('flush threw')
    let throws = 2
    const { store, kept } = keepingStore(() => {
      if (throws-- > 0) throw thrown
      return alreadyFlushed
    })
    const agent = createAgent({ model: scriptedModel(['a1', 'a2', 'a3']), store })
    const rec = record(agent)
    for (const q of ['q1', 'q2', 'q3']) {
      agent.followup(q)
      await agent.whenIdle()
    }
    expect(errorsOf(rec.live).map((e) => [e.turn, e.step, e.error])).toEqual([
      [1, 0, thrown],
      [2, 0, thrown],
    ])
    for (const turn of [1, 2, 3]) expect(rec.log).toContain(`settled(${turn},completed)`)
    await expect(agent.session.flush()).resolves.toBeUndefined()
    expectExactlyOnce(kept, agent.session.events)
    await agent.dispose()
  })

  it('R36: a store whose flush() returns alreadyFlushed checkpoints at once, in the same order as any other', async () => {
    let flushes = 0
    const { store, kept } = keepingStore(() => {
      flushes++
      return alreadyFlushed
    })
    const agent = createAgent({ model: scriptedModel(['a1', 'a2']), store })
    const rec = record(agent)
    agent.followup('q1')
    agent.followup('q2')
    await agent.whenIdle()
    expect(flushes).toBe(2)
    expect(rec.log.filter((l) => l.startsWith('settled') || l.startsWith('dequeue'))).toEqual([
      'dequeue(q1)',
      'settled(1,completed)',
      'dequeue(q2)',
      'settled(2,completed)',
    ])
    expectExactlyOnce(kept, agent.session.events)
    await agent.dispose()
  })

  it('R36, R40: each failed checkpoint is reported after turn/end and before the next turn', async () => {
    const { store, flushError } = flakyStore({ failFlush: 1 })
    const agent = createAgent({ model: scriptedModel(['a1', 'a2']), store })
    const rec = record(agent)
    agent.followup('q1')
    agent.followup('q2')
    await agent.whenIdle()
    const i = rec.log.indexOf('error(1.0)')
    expect(i).toBeGreaterThan(rec.log.indexOf('turn/end(1,completed)'))
    expect(i).toBeLessThan(rec.log.indexOf('dequeue(q2)'))
    expect(errorsOf(rec.live)[0]?.error).toBe(flushError)
    expect(rec.log).toContain('settled(2,completed)')
    await agent.dispose()
  })

  it('R40: session.flush() rejects while the store cannot write and resolves after recovery; the agent goes on', async () => {
    const { store, durable, control, flushError } = flakyStore()
    control.flushFailing = true
    const agent = createAgent({ model: scriptedModel(['a1', 'a2', 'a3']), store })
    const rec = record(agent)
    agent.followup('q1')
    await agent.whenIdle()
    expect(errorsOf(rec.live)).toHaveLength(1)
    await expect(agent.session.flush()).rejects.toBe(flushError)
    await expect(agent.session.flush()).rejects.toBe(flushError)
    // Not wedged.
    agent.followup('q2')
    await agent.whenIdle()
    expect(rec.log).toContain('settled(2,completed)')
    expect(durable).toEqual([])
    control.flushFailing = false
    await expect(agent.session.flush()).resolves.toBeUndefined()
    expectExactlyOnce(durable, agent.session.events)
    agent.followup('q3')
    await agent.whenIdle()
    expect(errorsOf(rec.live)).toHaveLength(2)
    expectExactlyOnce(durable, agent.session.events)
    await agent.dispose()
  })

  it('R40: an asynchronous (Promise) flush failing twice then recovering behaves the same', async () => {
    const { store, durable, flushError } = flakyStore({ failFlush: 2, async: true })
    const agent = createAgent({ model: scriptedModel(['a1', 'a2', 'a3']), store })
    const rec = record(agent)
    agent.followup('q1')
    agent.followup('q2')
    agent.followup('q3')
    await agent.whenIdle()
    expect(errorsOf(rec.live).map((e) => [e.turn, e.error])).toEqual([
      [1, flushError],
      [2, flushError],
    ])
    expect(rec.log).toContain('settled(3,completed)')
    expectExactlyOnce(durable, agent.session.events)
    await agent.dispose()
  })

  it('R36, R40: a failed flush of an idle inject is reported (turn 0, step 0) and retried at the next checkpoint', async () => {
    const { store, durable, flushError } = flakyStore({ failFlush: 1 })
    const agent = createAgent({ model: scriptedModel(['a1']), store })
    const rec = record(agent)
    agent.inject('fact')
    await agent.whenIdle()
    await new Promise((r) => setTimeout(r, 5))
    expect(errorsOf(rec.live).map((e) => [e.turn, e.step, e.error])).toEqual([[0, 0, flushError]])
    expect(durable).toEqual([])
    agent.followup('q1')
    await agent.whenIdle()
    expectExactlyOnce(durable, agent.session.events)
    await agent.dispose()
  })

  it('R29, R40: dispose() resolves even when the final flush fails; the failure is reported and the store closed', async () => {
    const { store, control, flushError } = flakyStore()
    const agent = createAgent({ model: scriptedModel(['a1']), store })
    const rec = record(agent)
    agent.followup('q1')
    await agent.whenIdle()
    control.flushFailing = true
    agent.inject('late fact')
    await agent.dispose()
    expect(control.closed).toBe(true)
    expect(errorsOf(rec.live).length).toBeGreaterThanOrEqual(1)
    expect(errorsOf(rec.live).every((e) => e.error === flushError)).toBe(true)
    expect(rec.completed).toEqual({ events: true, transcript: true })
  })
})

describe('R40: append failures', () => {
  it('R40: an append that throws 3 times loses nothing: every event reaches the store once, in seq order', async () => {
    const { store, durable, accepted, control, appendError } = flakyStore({ failAppend: 3 })
    const agent = createAgent({ model: scriptedModel(['a1', 'a2']), store })
    const rec = record(agent)
    agent.followup('q1')
    agent.followup('q2')
    await agent.whenIdle()
    expect(control.appendErrors).toBe(3)
    const errors = errorsOf(rec.live)
    expect(errors).toHaveLength(3)
    expect(errors.every((e) => e.error === appendError)).toBe(true)
    expect(rec.log).toContain('settled(2,completed)')
    expectExactlyOnce(accepted, agent.session.events)
    expectExactlyOnce(durable, agent.session.events)
    await agent.dispose()
  })

  it('R40: an append failure inside a turn is reported at the current turn and step', async () => {
    const { store, durable, control, appendError } = flakyStore()
    let failOnce = true
    control.failAppendOf = (event) => {
      if (failOnce && event.type === 'assistant/message') {
        failOnce = false
        return true
      }
      return false
    }
    const agent = createAgent({ model: scriptedModel(['a1']), store })
    const rec = record(agent)
    agent.followup('q1')
    await agent.whenIdle()
    expect(errorsOf(rec.live).map((e) => [e.turn, e.step, e.error])).toEqual([[1, 1, appendError]])
    // Reported before the turn ends.
    expect(rec.log.indexOf('error(1.1)')).toBeLessThan(rec.log.indexOf('turn/end(1,completed)'))
    expectExactlyOnce(durable, agent.session.events)
    await agent.dispose()
  })

  it('R40: an append failure on the last event of a turn is handed over by the checkpoint', async () => {
    const { store, durable, control } = flakyStore()
    let failOnce = true
    control.failAppendOf = (event) => {
      if (failOnce && event.type === 'turn/end') {
        failOnce = false
        return true
      }
      return false
    }
    const agent = createAgent({ model: scriptedModel(['a1']), store })
    const rec = record(agent)
    agent.followup('q1')
    await agent.whenIdle()
    expect(errorsOf(rec.live)).toHaveLength(1)
    // The checkpoint after turn/end handed the missed turn/end over and flushed it.
    expectExactlyOnce(durable, agent.session.events)
    await agent.dispose()
  })

  it('R40: while append keeps failing, session.flush() rejects (the store does not hold every event)', async () => {
    const { store, durable, control } = flakyStore()
    const agent = createAgent({ model: scriptedModel(['a1']), store })
    const rec = record(agent)
    agent.followup('q1')
    await agent.whenIdle()
    expectExactlyOnce(durable, agent.session.events)
    control.appendFailing = true
    agent.inject('fact while the store refuses appends')
    await agent.whenIdle()
    await new Promise((r) => setTimeout(r, 5))
    expect(errorsOf(rec.live).length).toBeGreaterThanOrEqual(1)
    // The event is kept in memory (R40) …
    expect(agent.session.events.at(-1)).toMatchObject({ type: 'user/message' })
    // … but the store does not have it: flush cannot make it durable, so it must reject.
    await expect(agent.session.flush()).rejects.toThrow()
    control.appendFailing = false
    await agent.dispose()
  })

  it('R40: after append recovers, session.flush() alone hands the missed events over and makes them durable', async () => {
    const { store, durable, control } = flakyStore()
    const agent = createAgent({ model: scriptedModel(['a1', 'a2']), store })
    const rec = record(agent)
    agent.followup('q1')
    await agent.whenIdle()
    control.appendFailing = true
    agent.inject('fact while the store refuses appends')
    await agent.whenIdle()
    await new Promise((r) => setTimeout(r, 5))
    expect(errorsOf(rec.live).length).toBeGreaterThanOrEqual(1)
    control.appendFailing = false
    await agent.session.flush()
    // "resolves when everything appended so far is durable" (docs/contract.md, section 3)
    expectExactlyOnce(durable, agent.session.events)
    // And the agent goes on; the next checkpoint keeps the store exact.
    agent.followup('q2')
    await agent.whenIdle()
    expect(rec.log).toContain('settled(2,completed)')
    expectExactlyOnce(durable, agent.session.events)
    await agent.dispose()
  })
})

/**
 * fileStore-level injection: a directory takes the log's name (`blockWrites`), so the store's
 * next write fails with EISDIR; putting the log back is the recovery.
 */
describe('R40: fileStore write failures', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'steerable-storefail-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  const readEvents = (path: string): SessionEvent[] =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as SessionEvent)

  it('R36, R40: failed checkpoints are reported, flush rejects, and after recovery the file holds every event once', async () => {
    const path = join(dir, 'session.jsonl')
    const store = fileStore(path)
    const agent = createAgent({ model: scriptedModel(['a1', 'a2', 'a3']), store })
    const rec = record(agent)
    agent.followup('q1')
    await agent.whenIdle()
    expect(readEvents(path)).toEqual(agent.session.events)
    const durableAfterTurn1 = agent.session.events.length

    const unblock = blockWrites(path) // writes now fail with EISDIR
    agent.followup('q2')
    await agent.whenIdle()
    expect(errorsOf(rec.live).map((e) => [e.turn, e.step])).toEqual([[2, 0]])
    expect(rec.log).toContain('settled(2,completed)')
    await expect(agent.session.flush()).rejects.toThrow(/EISDIR/)
    unblock() // recovered
    expect(readEvents(path)).toHaveLength(durableAfterTurn1)
    await agent.session.flush()
    expect(readEvents(path)).toEqual(agent.session.events)
    agent.followup('q3')
    await agent.whenIdle()
    await agent.dispose()
    const after = readEvents(path)
    expectExactlyOnce(after, agent.session.events)
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true)
    const reopened = fileStore(path)
    expect(reopened.warnings).toEqual([])
    expect(reopened.load()).toEqual(agent.session.events)
    reopened.close?.()
  })
})
