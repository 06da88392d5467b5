/**
 * R43–R46: withdraw, edit, reorder and promote waiting items through the public API, with the
 * books still balancing (R30).
 */
import { describe, expect, it } from 'vitest'
import { AgentDisposedError, InvalidInputError, inboxConservation } from '../../src/index.js'
import { gate, PARKED, setup, texts } from '../support/agents.js'

/** An agent whose first turn holds until `release`, with the first prompt claimed. */
const held = async (more: readonly string[] = ['two', 'three', 'four']) => {
  const g = gate()
  const ctx = setup([g.reply, ...more])
  const errors: unknown[] = []
  ctx.agent.events$.pipe(inboxConservation()).subscribe({ error: (e) => errors.push(e) })
  ctx.agent.followup('first')
  await Promise.resolve()
  return { ...ctx, release: g.release, errors }
}

const queueTexts = (agent: { inbox: { queue: readonly { message: { content: readonly unknown[] } }[] } }) =>
  texts(agent.inbox.queue.map((i) => i.message))

describe('R43: remove(id)', () => {
  it('R43: a queued item is discarded with reason removed and never runs', async () => {
    const { agent, rec, release, model, errors } = await held()
    const a = agent.followup('a')
    agent.followup('b')
    agent.remove(a)
    expect(rec.log.slice(-1)).toEqual(['discard:removed(a)'])
    expect(queueTexts(agent)).toEqual(['b'])
    release('one')
    await agent.whenIdle()
    expect(model.requests.map((r) => texts(r.messages).at(-1))).toEqual(['first', 'b'])
    expect(await agent.outcome(a)).toEqual({ kind: 'discarded', reason: 'removed' })
    expect(errors).toEqual([])
  })

  it('R43: staged steering is discarded; staged context settles removed without an event', async () => {
    const { agent, rec, release } = await held()
    const s = agent.steer('s')
    const c = agent.inject('c')
    agent.remove(s)
    agent.remove(c)
    expect(rec.log.slice(-2)).toEqual(['enqueue(s,steering)', 'discard:removed(s)'])
    expect(agent.inbox.outbox).toEqual([])
    release('one')
    await agent.whenIdle()
    expect(
      rec.durable.some(
        (e) => e.type === 'steering/message' || (e.type === 'user/message' && e.data.id === c),
      ),
    ).toBe(false)
    expect(await agent.outcome(c)).toEqual({ kind: 'discarded', reason: 'removed' })
  })

  it('R43: an item that no longer waits (the running prompt, an unknown id) is left alone', async () => {
    const { agent, rec } = await held()
    const before = rec.log.length
    agent.remove(agent.session.events.find((e) => e.type === 'user/message')?.data.id as never)
    agent.remove('01UNKNOWNUNKNOWNUNKNOWNUNK' as never)
    expect(rec.log.length).toBe(before)
  })
})

describe('R44: replace(id, input)', () => {
  it('R44: same id, same place, new content; the turn runs the new text', async () => {
    const { agent, rec, release, model } = await held()
    agent.followup('a')
    const b = agent.followup('b')
    agent.followup('c')
    agent.replace(b, 'B!')
    expect(rec.log.at(-1)).toBe('replace(B!)')
    expect(queueTexts(agent)).toEqual(['a', 'B!', 'c'])
    expect(agent.inbox.queue[1]?.message.id).toBe(b)
    release('one')
    await agent.whenIdle()
    expect(model.requests.map((r) => texts(r.messages).at(-1))).toEqual(['first', 'a', 'B!', 'c'])
    expect(await agent.outcome(b)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 3 })
  })

  it('R44, R2: refused input throws InvalidInputError and changes nothing', async () => {
    const { agent, rec } = await held()
    const a = agent.followup('a')
    const before = rec.log.length
    expect(() => agent.replace(a, { content: [] } as never)).toThrow(InvalidInputError)
    expect(rec.log.length).toBe(before)
    expect(queueTexts(agent)).toEqual(['a'])
  })
})

describe('R45: move(id, index)', () => {
  it('R45: moves a queued item; reorder names the new order; clamped; no event when it stays', async () => {
    const { agent, rec, release, model } = await held()
    const a = agent.followup('a')
    const b = agent.followup('b')
    const c = agent.followup('c')
    agent.move(c, 0)
    expect(rec.live.at(-1)).toMatchObject({ type: 'agent/inbox/reorder', ids: [c, a, b] })
    agent.move(c, -5) // clamped to 0: already there
    agent.move(a, 99) // clamped to the end
    expect(queueTexts(agent)).toEqual(['c', 'b', 'a'])
    expect(rec.live.filter((e) => e.type === 'agent/inbox/reorder')).toHaveLength(2)
    release('one')
    await agent.whenIdle()
    expect(model.requests.map((r) => texts(r.messages).at(-1))).toEqual(['first', 'c', 'b', 'a'])
  })

  it('R45, R2: a bad id and a bad index are refused together, and nothing moves', async () => {
    const { agent, rec, release } = await held()
    agent.followup('a')
    const before = rec.live.length
    expect(() => agent.move('' as never, 1.5)).toThrow(
      /^move\(\): id: expected the id that send\(\) returned; index: expected a whole number/,
    )
    expect(rec.live).toHaveLength(before)
    release('one')
    await agent.whenIdle()
  })
})

describe('R46: promote(id)', () => {
  it('R46: while a turn runs, a queued item becomes steering of it (dequeue, then enqueue(steering))', async () => {
    const { agent, rec, release, errors } = await held()
    const a = agent.followup('a')
    agent.promote(a)
    expect(rec.log.slice(-2)).toEqual(['dequeue(a)', 'enqueue(a,steering)'])
    release('one')
    await agent.whenIdle()
    expect(await agent.outcome(a)).toMatchObject({ kind: 'delivered', as: 'steering', turn: 1 })
    expect(rec.durable.filter((e) => e.type === 'turn/start')).toHaveLength(1) // it landed in turn 1
    expect(errors).toEqual([])
  })

  it('R46: while idle, a parked item moves to the head as a waking item and runs next', async () => {
    const { agent, rec, model } = setup(['one', 'two'])
    agent.send('p1', PARKED)
    const p2 = agent.send('p2', PARKED)
    agent.promote(p2)
    expect(rec.log.at(-1)).toBe('reorder(2)')
    expect(agent.inbox.queue.map((i) => i.placement)).toEqual(['queued', 'parked'])
    await agent.whenIdle()
    expect(model.requests.map((r) => texts(r.messages).at(-1))).toEqual(['p2'])
    expect(queueTexts(agent)).toEqual(['p1'])
  })
})

describe('V2: inbox control after dispose()', () => {
  it('V2: remove, replace, move and promote throw AgentDisposedError once dispose() resolved', async () => {
    const { agent } = setup([])
    const id = agent.send('p', PARKED)
    await agent.dispose()
    for (const call of [
      () => agent.remove(id),
      () => agent.replace(id, 'x'),
      () => agent.move(id, 0),
      () => agent.promote(id),
    ])
      expect(call).toThrow(AgentDisposedError)
    expect(agent.inbox).toEqual({ queue: [], outbox: [] })
  })
})
