/**
 * R41, R42: the inbox as data (`agent.inbox`, `agent.inbox$`) and the fate of each message
 * (`agent.outcome(id)`), through the public API.
 */
import { describe, expect, it } from 'vitest'
import {
  createAgent,
  type InboxSnapshot,
  InvalidInputError,
  type Outcome,
  type SessionEvent,
} from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { gate, INJECT, PARKED, setup } from '../support/agents.js'

/** The inbox as `[text, placement]` pairs, queue then outbox. */
const view = (inbox: InboxSnapshot) => ({
  queue: inbox.queue.map((i) => [(i.message.content[0] as { text: string }).text, i.placement]),
  outbox: inbox.outbox.map((i) => [(i.message.content[0] as { text: string }).text, i.placement]),
})

const seqOf = (events: readonly SessionEvent[], id: string): number | undefined =>
  events.find((e) => (e.type === 'user/message' || e.type === 'steering/message') && e.data.id === id)?.seq

describe('R41: agent.inbox and agent.inbox$', () => {
  it('R41: the queue (waking and parked) and the outbox (steering and context), as frozen data', async () => {
    const g = gate()
    const { agent } = setup([g.reply, 'two', 'three'])
    expect(view(agent.inbox)).toEqual({ queue: [], outbox: [] })
    agent.followup('first')
    await Promise.resolve()
    expect(agent.acceptsNextStep).toBe(true)
    agent.followup('later')
    agent.send('parked', PARKED)
    agent.steer('steer')
    agent.send('fact', INJECT)
    const inbox = agent.inbox
    expect(view(inbox)).toEqual({
      queue: [
        ['later', 'queued'],
        ['parked', 'parked'],
      ],
      outbox: [
        ['steer', 'steering'],
        ['fact', 'context'],
      ],
    })
    expect(Object.isFrozen(inbox)).toBe(true)
    expect(Object.isFrozen(inbox.queue[0])).toBe(true)
    expect(agent.inbox).toBe(inbox) // the same object until the inbox changes
    g.release('one')
    await agent.whenIdle()
    expect(view(agent.inbox)).toEqual({ queue: [['parked', 'parked']], outbox: [] })
    await agent.dispose()
  })

  it('R41: inbox$ emits the current inbox on subscribe, then once per change, never twice the same', async () => {
    const g = gate()
    const { agent } = setup([g.reply, 'two'])
    const seen: ReturnType<typeof view>[] = []
    agent.inbox$.subscribe((inbox) => seen.push(view(inbox)))
    agent.followup('first')
    await Promise.resolve()
    agent.followup('second')
    g.release('one')
    await agent.whenIdle()
    expect(seen).toEqual([
      { queue: [], outbox: [] },
      { queue: [['first', 'queued']], outbox: [] },
      { queue: [], outbox: [] },
      { queue: [['second', 'queued']], outbox: [] },
      { queue: [], outbox: [] },
    ])
    await agent.dispose()
  })

  it('R41: the item a claim is dequeuing is still shown in the queue until its dequeue', async () => {
    const { agent } = setup(['one'])
    const atRunning: ReturnType<typeof view>[] = []
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/status' && e.status === 'running') atRunning.push(view(agent.inbox))
      if (e.type === 'agent/inbox/dequeue') atRunning.push(view(agent.inbox))
    })
    agent.followup('first')
    await agent.whenIdle()
    expect(atRunning).toEqual([
      { queue: [['first', 'queued']], outbox: [] },
      { queue: [], outbox: [] },
    ])
  })
})

describe('R42: agent.outcome(id)', () => {
  it('R42: a followup is delivered as the prompt of its turn, with the seq of its user/message', async () => {
    const { agent } = setup(['one'])
    const id = agent.followup('hi')
    const outcome = await agent.outcome(id)
    expect(outcome).toEqual({
      kind: 'delivered',
      as: 'prompt',
      turn: 1,
      seq: seqOf(agent.session.events, id),
    })
    // Asked again after it settled: the same outcome, at once.
    expect(await agent.outcome(id)).toEqual(outcome)
  })

  it('R42: a steer is delivered as steering, with the step whose step/end follows it', async () => {
    const g = gate()
    const { agent } = setup([g.reply, 'two'])
    agent.followup('go')
    await Promise.resolve()
    const id = agent.steer('shorter')
    const settled = agent.outcome(id)
    g.release('one')
    expect(await settled).toEqual({
      kind: 'delivered',
      as: 'steering',
      turn: 1,
      step: 1,
      seq: seqOf(agent.session.events, id),
    })
  })

  it('R42: an inject is delivered as context: outside a turn without one, inside with its turn', async () => {
    const g = gate()
    const { agent } = setup([g.reply])
    const outside = agent.inject('idle fact')
    agent.followup('go')
    await Promise.resolve()
    const inside = agent.inject('turn fact')
    g.release('one')
    await agent.whenIdle()
    const events = agent.session.events
    expect(await agent.outcome(outside)).toEqual({
      kind: 'delivered',
      as: 'context',
      seq: seqOf(events, outside),
    })
    expect(await agent.outcome(inside)).toEqual({
      kind: 'delivered',
      as: 'context',
      seq: seqOf(events, inside),
      turn: 1,
    })
  })

  it('R42: a prompt that promptSubmit blocks settles blocked, with the reason', async () => {
    const { agent } = setup(['never'], {
      hooks: { promptSubmit: () => ({ kind: 'block', reason: 'not now' }) },
    })
    const id = agent.followup('hi')
    expect(await agent.outcome(id)).toEqual({ kind: 'blocked', reason: 'not now' })
  })

  it('R42: a cancel discards with reason cancel; dispose() with reason dispose', async () => {
    const { agent } = setup([{ hang: true }])
    agent.followup('go')
    await Promise.resolve()
    const queued = agent.followup('queued')
    const pending = agent.outcome(queued)
    agent.cancel({ kind: 'user' })
    expect(await pending).toEqual({ kind: 'discarded', reason: 'cancel' })
    const parked = agent.send('parked', PARKED)
    await agent.dispose()
    expect(await agent.outcome(parked)).toEqual({ kind: 'discarded', reason: 'dispose' })
  })

  it('R42: an id this agent never returned rejects with InvalidInputError', async () => {
    const { agent } = setup([])
    const other = createAgent({ model: scriptedModel([]) })
    const foreign = other.send('x', PARKED)
    await expect(agent.outcome(foreign)).rejects.toBeInstanceOf(InvalidInputError)
    await expect(agent.outcome('nope' as never)).rejects.toThrow(/outcome\(\): id: unknown id/)
  })

  it('R42: an id sent from a subscriber can be asked about at once', async () => {
    const { agent } = setup(['one', 'two'])
    const outcomes: Promise<Outcome>[] = []
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/status' && e.status === 'running' && outcomes.length === 0)
        outcomes.push(agent.outcome(agent.followup('from a subscriber')))
    })
    agent.followup('first')
    await agent.whenIdle()
    expect(await outcomes[0]).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 2 })
  })

  it('R42: after a resume, ids in the transcript settle from it', async () => {
    const { agent } = setup(['one'])
    const id = agent.followup('hi')
    await agent.whenIdle()
    const resumed = createAgent({ model: scriptedModel([]), history: agent.session.events })
    expect(await resumed.outcome(id)).toEqual(await agent.outcome(id))
  })
})
