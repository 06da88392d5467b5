/**
 * The driver's engine lifecycle: built on the first input that needs it, released when the agent
 * is quiescent with nothing in flight, built again by the next input; and what subscribers and
 * waiters see across a release (R28, R29).
 */
import { firstValueFrom, Subject, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { type Agent, createAgent, type SessionStore } from '../../src/index.js'
import { extensionsOf } from '../../src/runtime/extensions.js'
import { label, scriptedModel } from '../../src/testing.js'

const answers = (n: number) => scriptedModel(Array.from({ length: n }, (_, i) => `answer ${i + 1}`))
const builds = (agent: Agent): number => extensionsOf(agent).engineBuilds

describe('the driver builds its engine lazily and releases it when quiescent', () => {
  it('a new agent has built nothing; reading its getters and streams builds nothing', () => {
    const agent = createAgent({ model: answers(1) })
    agent.events$.subscribe()
    agent.inbox$.subscribe()
    agent.status$.subscribe()
    expect([agent.status, agent.acceptsNextStep, agent.inbox.queue.length]).toEqual(['idle', false, 0])
    expect(builds(agent)).toBe(0)
  })

  it('R28: each turn from idle builds one engine, released once the turn has settled', async () => {
    const agent = createAgent({ model: answers(3) })
    for (const text of ['one', 'two', 'three']) {
      agent.followup(text)
      await agent.whenIdle()
    }
    expect(builds(agent)).toBe(3)
    expect(agent.session.messages().map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ])
  })

  it('a subscriber of events$ and transcript$ sees every event across releases, in order, then completion', async () => {
    const agent = createAgent({ model: answers(2) })
    const live = firstValueFrom(agent.events$.pipe(toArray()))
    const durable = firstValueFrom(agent.transcript$.pipe(toArray()))
    agent.followup('one')
    await agent.whenIdle()
    agent.followup('two')
    await agent.whenIdle()
    await agent.dispose()
    expect(builds(agent)).toBe(3)
    expect((await durable).map(label)).toEqual([
      'turn/start(1)',
      'user(one)',
      'step/start(1.1)',
      'assistant(answer 1)',
      'step/end(1.1)',
      'turn/end(1,completed)',
      'turn/start(2)',
      'user(two)',
      'step/start(2.1)',
      'assistant(answer 2)',
      'step/end(2.1)',
      'turn/end(2,completed)',
    ])
    const statuses = (await live).filter((e) => e.type === 'agent/status').map(label)
    expect(statuses).toEqual(['running', 'idle', 'running', 'idle'])
  })

  it('R36: an engine is kept while a store flush is in flight, and released once it is done', async () => {
    const flushed = new Subject<void>()
    const store: SessionStore = { load: () => [], append: () => {}, flush: () => flushed }
    const agent = createAgent({ model: answers(0), store })
    const errors: unknown[] = []
    agent.events$.subscribe((e) => e.type === 'agent/error' && errors.push(e.error))
    // Outside a turn an inject is appended at once and flushed (R36): the flush is in flight.
    agent.inject('context')
    expect(builds(agent)).toBe(1)
    agent.inject('more context')
    expect(builds(agent)).toBe(1)
    flushed.error(new Error('disk full'))
    // The failed flush was reported by the engine that waited for it, which then went.
    expect(errors).toHaveLength(2)
    agent.inject('again')
    expect(builds(agent)).toBe(2)
  })

  it('R29: a disposed agent builds no engine again; later calls throw or do nothing', async () => {
    const agent = createAgent({ model: answers(1) })
    agent.followup('one')
    await agent.whenIdle()
    await agent.dispose()
    const before = builds(agent)
    expect(() => agent.followup('late')).toThrow(/disposed/)
    agent.cancel({ kind: 'user' })
    await agent.dispose()
    await agent.whenIdle()
    expect(builds(agent)).toBe(before)
  })
})
