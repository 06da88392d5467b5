/**
 * R47–R49: what a send does when the agent is busy (`ifBusy`), the bound on waiting items
 * (`maxQueued`), and the turn guard of a steer. Each refusal happens at call time: no id, no
 * event, nothing changed.
 */
import { describe, expect, it } from 'vitest'
import { AgentBusyError, InboxFullError, InvalidInputError, TurnMismatchError } from '../../src/index.js'
import { gate, setup, texts } from '../support/agents.js'

const lastTexts = (requests: readonly { messages: readonly { content: readonly unknown[] }[] }[]) =>
  requests.map((r) => texts(r.messages).at(-1))

describe("R47: ifBusy: 'reject'", () => {
  it('R47: refuses while a turn runs, a wake is scheduled or a waking item waits; accepts when not busy', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply, 'two'])
    expect(agent.followup('idle', { ifBusy: 'reject' })).toEqual(expect.any(String)) // not busy: accepted
    const before = rec.log.length
    // The wake is scheduled (the same stack): busy.
    expect(() => agent.followup('x', { ifBusy: 'reject' })).toThrow(AgentBusyError)
    await Promise.resolve()
    expect(() => agent.followup('y', { ifBusy: 'reject' })).toThrow(/ifBusy: 'reject' refuses it/)
    expect(rec.log.length).toBe(before + 5) // running, dequeue, turn/start, user, step/start: nothing of x, y
    // Steering while the window is open is not affected.
    expect(agent.steer('s', { ifBusy: 'reject' })).toEqual(expect.any(String))
    g.release('one')
    await agent.whenIdle()
  })

  it('R47: a send still waiting in the trampoline counts: followup(x) then a rejecting followup(y) from a subscriber', async () => {
    const { agent } = setup(['one'])
    const thrown: unknown[] = []
    agent.events$.subscribe((e) => {
      if (e.type !== 'agent/inbox/enqueue' || (e.message.content[0] as { text: string }).text !== 'trigger')
        return
      agent.send('x', { target: 'next-turn', wakeup: true })
      try {
        agent.followup('y', { ifBusy: 'reject' })
      } catch (error) {
        thrown.push(error)
      }
    })
    agent.send('trigger', { target: 'next-turn', wakeup: false })
    await agent.whenIdle()
    expect(thrown).toEqual([expect.any(AgentBusyError)])
  })
})

describe("R47: ifBusy: 'interrupt'", () => {
  it('R47: during a turn it runs next: the turn is cancelled keeping the inbox, then the rest in order', async () => {
    const { agent, rec, model } = setup([{ hang: true }, 'now', 'later'])
    agent.followup('first')
    await Promise.resolve()
    agent.followup('later')
    const urgent = agent.followup('urgent', { ifBusy: 'interrupt' })
    expect(agent.inbox.queue.map((i) => i.message.id)[0]).toBe(urgent)
    await agent.whenIdle()
    expect(lastTexts(model.requests)).toEqual(['first', 'urgent', 'later'])
    expect(rec.log).toContain('cancel(user)')
    expect(rec.log).not.toContain('discard(later)')
    const ends = rec.durable.flatMap((e) => (e.type === 'turn/end' ? [e.data.reason.kind] : []))
    expect(ends).toEqual(['aborted', 'completed', 'completed'])
  })

  it('R47: an interrupted admission does not lose its prompt: it goes back behind the interrupting item', async () => {
    const decisions: ((d: undefined) => void)[] = []
    const { agent, model, rec } = setup(['urgent answer', 'first answer'], {
      hooks: { promptSubmit: () => new Promise<undefined>((resolve) => decisions.push(resolve)) },
    })
    const first = agent.followup('first')
    await Promise.resolve()
    await Promise.resolve()
    expect(decisions).toHaveLength(1) // 'first' is being admitted
    agent.followup('urgent', { ifBusy: 'interrupt' })
    await new Promise((r) => setTimeout(r, 10))
    for (const decide of decisions.splice(0)) decide(undefined)
    await new Promise((r) => setTimeout(r, 10))
    for (const decide of decisions.splice(0)) decide(undefined)
    await agent.whenIdle()
    expect(lastTexts(model.requests)).toEqual(['urgent', 'first'])
    expect(rec.log.filter((l) => l === 'enqueue(first,queued)')).toHaveLength(2)
    expect(await agent.outcome(first)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 2 })
  })

  it("R47, R2: ifBusy: 'interrupt' with wakeup: false is refused", () => {
    const { agent } = setup([])
    expect(() => agent.send('x', { target: 'next-turn', wakeup: false, ifBusy: 'interrupt' })).toThrow(
      InvalidInputError,
    )
    expect(() => agent.inject('x', { ifBusy: 'interrupt' })).toThrow(/ifBusy: 'interrupt' needs wakeup: true/)
  })
})

describe('R48: createAgent({maxQueued})', () => {
  it('R48: a send beyond the bound throws InboxFullError; injections are not counted', async () => {
    const g = gate()
    const { agent } = setup([g.reply, 'a', 'b'], { maxQueued: 2 })
    agent.followup('first')
    await Promise.resolve()
    agent.followup('a')
    agent.steer('s')
    let error: unknown
    try {
      agent.followup('b')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InboxFullError)
    expect((error as InboxFullError).limit).toBe(2)
    expect(agent.inject('a fact')).toEqual(expect.any(String))
    expect(agent.inbox.queue).toHaveLength(1)
    g.release('one')
    await agent.whenIdle()
  })

  it('R48: two sends from one subscriber cannot both pass maxQueued: 1', async () => {
    const { agent } = setup(['one', 'two'], { maxQueued: 1 })
    const thrown: unknown[] = []
    agent.events$.subscribe((e) => {
      if (e.type !== 'agent/status' || e.status !== 'running') return
      for (const text of ['x', 'y'])
        try {
          agent.followup(text)
        } catch (error) {
          thrown.push(error)
        }
    })
    agent.followup('first')
    await agent.whenIdle()
    expect(thrown).toEqual([expect.any(InboxFullError)])
  })

  it('R2: maxQueued must be an integer >= 1', () => {
    expect(() => setup([], { maxQueued: 0 })).toThrow(
      /options\.maxQueued: expected a whole number, 1 or more \(leave it out for no bound\), got 0/,
    )
  })
})

describe('R49: steer(x, {turn})', () => {
  it('R49: steers only turn n: TurnMismatchError otherwise, with expected and current', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply, 'two'])
    let error = (() => {
      try {
        agent.steer('x', { turn: 1 })
      } catch (e) {
        return e as TurnMismatchError
      }
    })()
    expect(error).toBeInstanceOf(TurnMismatchError)
    expect([error?.expected, error?.current]).toEqual([1, null])
    agent.followup('go')
    await Promise.resolve()
    expect(agent.steer('for turn 1', { turn: 1 })).toEqual(expect.any(String))
    error = (() => {
      try {
        agent.steer('x', { turn: 2 })
      } catch (e) {
        return e as TurnMismatchError
      }
    })()
    expect([error?.expected, error?.current]).toEqual([2, 1])
    g.release('one')
    await agent.whenIdle()
    expect(rec.log).toContain('steering(for turn 1)')
  })

  it('R49: guarded steering still staged when its turn ends is discarded as expired, never run later', async () => {
    const { agent, rec, model } = setup([{ hang: true }, 'two'])
    agent.followup('go')
    await Promise.resolve()
    const guarded = agent.steer('only turn 1', { turn: 1 })
    agent.followup('next')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(rec.log).toContain('discard:expired(only turn 1)')
    expect(await agent.outcome(guarded)).toEqual({ kind: 'discarded', reason: 'expired' })
    expect(model.requests.every((r) => !texts(r.messages).includes('only turn 1'))).toBe(true)
  })

  it('R49, R2: a turn guard needs a next-step send', () => {
    const { agent } = setup([])
    expect(() => agent.send('x', { target: 'next-turn', wakeup: true, turn: 1 })).toThrow(
      /a turn guard needs target: 'next-step'/,
    )
  })
})
