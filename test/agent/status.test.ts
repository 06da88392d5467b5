import { VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { statusAlternation } from '../../src/index.js'
import { oneTurn, PARKED, record, setup } from '../support/agents.js'
import { createFor, scenarios } from '../support/scenarios.js'

const statusesOf = (log: readonly string[]) => log.filter((l) => l === 'running' || l === 'idle')

describe('R9: status', () => {
  it('R9: a synchronous burst of N followups yields exactly running, idle around N turns', async () => {
    const n = 8
    const { agent, rec } = setup(Array.from({ length: n }, (_, i) => `r${i}`))
    for (let i = 0; i < n; i++) agent.followup(`f${i}`)
    await agent.whenIdle()
    expect(statusesOf(rec.log)).toEqual(['running', 'idle'])
    expect(rec.log.filter((l) => l.startsWith('turn/end'))).toHaveLength(n)
    expect(rec.log[n]).toBe('running')
    expect(rec.log.at(-1)).toBe('idle')
  })

  it('R9: rejected admissions and turns share one running interval', async () => {
    const { agent, rec } = setup(['ok', 'ok2'], {
      hooks: {
        promptSubmit: ({ content }) =>
          content[0]?.type === 'text' && content[0].text.startsWith('x')
            ? { kind: 'block', reason: 'no' }
            : undefined,
      },
    })
    agent.followup('x1')
    agent.followup('a')
    agent.followup('x2')
    agent.followup('b')
    await agent.whenIdle()
    expect(statusesOf(rec.log)).toEqual(['running', 'idle'])
    expect(rec.log.filter((l) => l.startsWith('turn/start'))).toEqual(['turn/start(1)', 'turn/start(2)'])
  })

  it('R9: separate bursts give separate running intervals', async () => {
    const { agent, rec } = setup(['1', '2'])
    agent.followup('a')
    await agent.whenIdle()
    agent.followup('b')
    await agent.whenIdle()
    expect(statusesOf(rec.log)).toEqual(['running', 'idle', 'running', 'idle'])
  })

  it('R9: agent.status follows the published status', async () => {
    const { agent } = setup(['ok'])
    const seen: string[] = []
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/status') seen.push(`${e.status}=${agent.status}`)
    })
    agent.followup('a')
    expect(agent.status).toBe('idle')
    await agent.whenIdle()
    expect(seen).toEqual(['running=running', 'idle=idle'])
  })

  it('R9: status$ emits the current status on subscribe, then each change', async () => {
    const { agent } = setup(['ok'])
    const first: string[] = []
    agent.status$.subscribe((s) => first.push(s))
    agent.followup('a')
    await agent.whenIdle()
    expect(first).toEqual(['idle', 'running', 'idle'])
    const late: string[] = []
    agent.send('p', PARKED)
    agent.status$.subscribe((s) => late.push(s))
    expect(late).toEqual(['idle'])
  })

  it('R6, R9: on a VirtualTimeScheduler nothing runs until the scheduler does', () => {
    const scheduler = new VirtualTimeScheduler()
    const { agent, rec } = setup(['ok', 'ok2'], { scheduler })
    agent.followup('a')
    agent.followup('b')
    expect(rec.log).toEqual(['enqueue(a,queued)', 'enqueue(b,queued)'])
    expect(agent.status).toBe('idle')
    scheduler.flush()
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'enqueue(b,queued)',
      ...oneTurn('a', 'ok', 1).slice(0, -1),
      ...oneTurn('b', 'ok2', 2).slice(1),
    ])
  })
})

describe('R31: the same status is never published twice in a row', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('R31: %s', async (_name, scenario) => {
    const agent = createFor(scenario)
    const rec = record(agent)
    const errors: unknown[] = []
    agent.events$.pipe(statusAlternation()).subscribe({ error: (e) => errors.push(e) })
    await scenario.run(agent)
    await agent.whenIdle()
    expect(errors).toEqual([])
    const statuses = rec.live.flatMap((e) => (e.type === 'agent/status' ? [e.status] : []))
    statuses.forEach((s, i) => {
      expect(s).toBe(i % 2 === 0 ? 'running' : 'idle')
    })
    expect(statuses.at(-1) ?? 'idle').toBe('idle')
    expect(agent.status).toBe('idle')
  })
})
