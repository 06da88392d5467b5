import { describe, expect, it } from 'vitest'
import type { PromptDecision } from '../../src/index.js'
import { deferred, gate, oneTurn, PARKED, setup } from '../support/agents.js'

describe('R28: whenIdle()', () => {
  it('R28: resolves at once on a fresh agent', async () => {
    const { agent } = setup()
    await expect(agent.whenIdle()).resolves.toBeUndefined()
  })

  it('R28: waits for a scheduled wake and the whole turn', async () => {
    const { agent, rec } = setup(['ok'])
    agent.followup('a')
    const idle = agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(a,queued)'])
    await idle
    expect(rec.log).toEqual(['enqueue(a,queued)', ...oneTurn('a', 'ok')])
  })

  it('R28: waits while an admission is deciding', async () => {
    const decision = deferred<PromptDecision>()
    const { agent, rec } = setup(['ok'], { hooks: { promptSubmit: () => decision.promise } })
    agent.followup('a')
    let resolved = false
    const idle = agent.whenIdle().then(() => {
      resolved = true
    })
    await rec.when('dequeue(a)')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(resolved).toBe(false)
    decision.resolve({ kind: 'allow' })
    await idle
    expect(rec.log.at(-1)).toBe('idle')
  })

  it('R28: follows chained work queued by a subscriber of the idle status, in the same delivery', async () => {
    const { agent, rec } = setup(['first done', 'chained done'])
    let chained = false
    agent.status$.subscribe((status) => {
      if (status === 'idle' && rec.log.includes('settled(1,completed)') && !chained) {
        chained = true
        agent.followup('chained')
      }
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log.slice(-6)).toEqual(oneTurn('chained', 'chained done', 2).slice(-6))
    expect(agent.status).toBe('idle')
  })

  it('R28: a whenIdle() called from an idle subscriber right after queuing chained work waits for that work', async () => {
    const { agent, rec } = setup(['first done', 'chained done'])
    let idle: Promise<void> | undefined
    const sub = agent.events$.subscribe((event) => {
      if (event.type === 'agent/status' && event.status === 'idle' && idle === undefined) {
        agent.followup('chained')
        idle = agent.whenIdle()
      }
    })
    agent.followup('a')
    await rec.when('settled(1,completed)')
    await rec.when('idle')
    await idle
    expect(rec.log.at(-1)).toBe('idle')
    expect(rec.log).toContain('settled(2,completed)')
    sub.unsubscribe()
  })

  it('R28: follows chained work: a cancel followed by replacement work resolves after the replacement', async () => {
    const { agent, rec } = setup([{ hang: true }, 'replacement done'])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    const idle = agent.whenIdle()
    agent.cancel({ kind: 'user' })
    agent.followup('b')
    await idle
    expect(rec.log.slice(-5)).toEqual([
      'assistant(replacement done)',
      'step/end(2.1)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'idle',
    ])
    expect(rec.log.filter((l) => l === 'idle')).toHaveLength(1)
  })

  it('R28: follows a followup sent from a settled subscriber', async () => {
    const { agent, rec } = setup(['one', 'two'])
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/settled' && e.turn === 1) agent.followup('b')
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log.at(-2)).toBe('settled(2,completed)')
  })

  it('R28: parked items do not delay it', async () => {
    const { agent, rec } = setup(['ok'])
    agent.send('p', PARKED)
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(p,queued)'])
  })

  it('R28: staged leftover steering does not delay it', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.steer('s')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(agent.status).toBe('idle')
    expect(rec.log.at(-1)).toBe('idle')
  })

  it('R28: never rejects, even when turns fail', async () => {
    const { agent, rec } = setup([{ error: new Error('down') }], {
      hooks: {
        promptSubmit: ({ content }) => {
          if (content[0]?.type === 'text' && content[0].text === 'b') throw new Error('hook down')
        },
      },
    })
    agent.followup('a')
    agent.followup('b')
    await expect(agent.whenIdle()).resolves.toBeUndefined()
    expect(rec.log).toContain('settled(1,error)')
    expect(rec.log).toContain('error(2.0)')
  })

  it('R28: several callers all resolve, at the same point', async () => {
    const { agent, rec } = setup(['ok'])
    agent.followup('a')
    const seen: number[] = []
    await Promise.all([
      agent.whenIdle().then(() => seen.push(rec.log.length)),
      agent.whenIdle().then(() => seen.push(rec.log.length)),
    ])
    expect(seen).toEqual([11, 11])
  })
})
