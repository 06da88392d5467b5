import { describe, expect, it } from 'vitest'
import { oneTurn, PARKED, setup } from '../support/agents.js'

describe('R8: parked items', () => {
  it('R8: a parked item never starts work by itself, and whenIdle() resolves while it is parked', async () => {
    const { agent, model, rec } = setup(['ok'])
    agent.send('p', PARKED)
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(p,queued)'])
    expect(agent.status).toBe('idle')
    expect(model.requests).toHaveLength(0)
  })

  it('R8: a waking item queued behind a parked one makes the driver claim the parked head first', async () => {
    const { agent, rec } = setup(['one', 'two'])
    const p = agent.send('p', PARKED)
    const w = agent.followup('w')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(p,queued)',
      'enqueue(w,queued)',
      ...oneTurn('p', 'one', 1).slice(0, -1),
      ...oneTurn('w', 'two', 2).slice(1),
    ])
    const starts = rec.durable.filter((e) => e.type === 'turn/start')
    expect(starts.map((e) => e.data)).toEqual([
      { turn: 1, trigger: { kind: 'message', source: { kind: 'user' }, id: p } },
      { turn: 2, trigger: { kind: 'message', source: { kind: 'user' }, id: w } },
    ])
  })

  it('R8: a waking item queued later wakes the driver, which claims the parked head first', async () => {
    const { agent, model, rec } = setup(['one', 'two'])
    agent.send('p', PARKED)
    await agent.whenIdle()
    expect(model.requests).toHaveLength(0)
    agent.followup('w')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(p,queued)',
      'enqueue(w,queued)',
      ...oneTurn('p', 'one', 1).slice(0, -1),
      ...oneTurn('w', 'two', 2).slice(1),
    ])
  })

  it('R8: parked items behind the last waking one stay parked', async () => {
    const { agent, model, rec } = setup(['one', 'two', 'three', 'four', 'five'])
    agent.send('p1', PARKED)
    agent.followup('w1')
    agent.send('p2', PARKED)
    agent.send('p3', PARKED)
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(p1,queued)',
      'enqueue(w1,queued)',
      'enqueue(p2,queued)',
      'enqueue(p3,queued)',
      ...oneTurn('p1', 'one', 1).slice(0, -1),
      ...oneTurn('w1', 'two', 2).slice(1),
    ])
    expect(model.requests).toHaveLength(2)
    // One more waking item claims the parked ones in order, and itself last.
    const mark = rec.log.length
    agent.followup('w2')
    await agent.whenIdle()
    expect(rec.log.slice(mark)).toEqual([
      'enqueue(w2,queued)',
      ...oneTurn('p2', 'three', 3).slice(0, -1),
      ...oneTurn('p3', 'four', 4).slice(1, -1),
      ...oneTurn('w2', 'five', 5).slice(1),
    ])
  })

  it('R8: a parked item sent while a turn runs does not extend the running interval', async () => {
    const { agent, rec } = setup(['one', 'two'])
    agent.transcript$.subscribe((e) => {
      if (e.type === 'turn/start' && e.data.turn === 1) agent.send('p', PARKED)
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log.filter((l) => l === 'running' || l === 'idle')).toEqual(['running', 'idle'])
    expect(rec.log).not.toContain('dequeue(p)')
    expect(rec.log.at(-1)).toBe('idle')
  })
})
