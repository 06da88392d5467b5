/** R82 through the public API: window$, text$, reply$, outcome$ and the sendTo operator. */
import { firstValueFrom, from, lastValueFrom, Observable, type Subscriber, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import * as steerable from '../../src/index.js'
import {
  type Agent,
  AgentDisposedError,
  type AgentMessageId,
  createAgent,
  defineTool,
  InvalidInputError,
  MessageNotDeliveredError,
  type ModelEvent,
  type SessionEvent,
  type StepText,
  sendTo,
} from '../../src/index.js'
import { label, scriptedModel } from '../../src/testing.js'
import { deferred, gate, setup } from '../support/agents.js'
import { spiedHistory } from '../support/spiedHistory.js'
import { noArgs } from '../support/tools.js'

/** Every value (or the error) of a stream that ends; labels for events. */
const settle = async <T>(stream$: Observable<T>): Promise<{ values: T[]; error?: unknown }> => {
  const values: T[] = []
  return new Promise((resolve) => {
    stream$.subscribe({
      next: (v) => values.push(v),
      error: (error: unknown) => resolve({ values, error }),
      complete: () => resolve({ values }),
    })
  })
}
const labels = (events: readonly SessionEvent[]) => events.map(label)

/**
 * A model reply that streams `first` as soon as the model is called (`called` resolves then), and
 * whose further events the test pushes by hand.
 */
const held = (first: string) => {
  const called = deferred()
  let model: Subscriber<ModelEvent> | undefined
  const reply = new Observable<ModelEvent>((subscriber) => {
    model = subscriber
    subscriber.next({ type: 'text', text: first })
    called.resolve()
  })
  return {
    reply,
    called: called.promise,
    push: (e: ModelEvent) => model?.next(e),
    end: () => model?.complete(),
  }
}

describe('R82: window$', () => {
  it('R82: gives the current value, then opens before running and closes right before turn/end, whoever subscribed first', async () => {
    const { agent, rec } = setup(['Hi'])
    agent.window$.subscribe((open) => rec.log.push(`window(${open})`))
    agent.followup('hello')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'window(false)',
      'enqueue(hello,queued)',
      'window(true)',
      'running',
      'dequeue(hello)',
      'turn/start(1)',
      'user(hello)',
      'step/start(1.1)',
      'assistant(Hi)',
      'step/end(1.1)',
      'window(false)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
  })

  it('R82: each value is acceptsNextStep at that moment; completes when the agent is disposed', async () => {
    const { agent } = setup(['a', 'b'])
    const seen: string[] = []
    let completed = false
    agent.window$.subscribe({
      next: (open) => seen.push(`${open}=${agent.acceptsNextStep}`),
      complete: () => {
        completed = true
      },
    })
    agent.followup('one')
    agent.followup('two')
    await agent.whenIdle()
    expect(seen).toEqual(['false=false', 'true=true', 'false=false', 'true=true', 'false=false'])
    await agent.dispose()
    expect(completed).toBe(true)
    // A late subscriber still gets the value, then completion.
    expect((await settle(agent.window$)).values).toEqual([false])
  })
})

describe('R82: text$', () => {
  it('R82: accumulates the text of each step; a new step starts from the empty text; reasoning does not count', async () => {
    const look = defineTool({
      name: 'look',
      description: 'Looks.',
      parameters: noArgs,
      execute: () => 'seen',
    })
    const model = scriptedModel([
      { reasoning: 'think first', text: 'Let me look', toolCalls: [{ name: 'look' }] },
      'Done here.',
    ])
    const agent = createAgent({ model, tools: [look] })
    const texts: StepText[] = []
    agent.text$.subscribe((t) => texts.push(t))
    agent.followup('go')
    await agent.whenIdle()
    expect(texts).toEqual([
      { turn: 1, step: 1, text: 'Let ' },
      { turn: 1, step: 1, text: 'Let me ' },
      { turn: 1, step: 1, text: 'Let me look' },
      { turn: 1, step: 2, text: 'Done ' },
      { turn: 1, step: 2, text: 'Done here.' },
    ])
  })

  it('R82: text on both sides of a reasoning block joins into one text', async () => {
    const events: ModelEvent[] = [
      { type: 'text', text: 'A' },
      { type: 'reasoning', text: 'r' },
      { type: 'text', text: 'B' },
      { type: 'text', text: 'C' },
      { type: 'finish', reason: 'stop' },
    ]
    const agent = createAgent({ model: scriptedModel([from(events)]) })
    const texts: string[] = []
    agent.text$.subscribe((t) => texts.push(t.text))
    agent.followup('go')
    await agent.whenIdle()
    expect(texts).toEqual(['A', 'AB', 'ABC'])
  })

  it('R82: a subscriber that joins while a step streams gets its text so far at once', async () => {
    const reply = held('Hel')
    const agent = createAgent({ model: scriptedModel([reply.reply]) })
    agent.followup('go')
    await reply.called
    const texts: string[] = []
    agent.text$.subscribe((t) => texts.push(t.text))
    expect(texts).toEqual(['Hel'])
    reply.push({ type: 'text', text: 'lo' })
    reply.push({ type: 'finish', reason: 'stop' })
    reply.end()
    await agent.whenIdle()
    expect(texts).toEqual(['Hel', 'Hello'])
  })
})

describe('R82: reply$(id)', () => {
  const TURN_1 = [
    'turn/start(1)',
    'user(one)',
    'step/start(1.1)',
    'assistant(A)',
    'step/end(1.1)',
    'turn/end(1,completed)',
  ]

  it('R82: a waiting followup: the events of its turn, from turn/start to turn/end, then complete', async () => {
    const { agent } = setup(['A', 'B'])
    const one = agent.followup('one')
    agent.followup('two')
    const reply = settle(agent.reply$(one))
    expect(labels((await reply).values)).toEqual(TURN_1)
    expect((await reply).error).toBeUndefined()
  })

  it('R82: an id delivered before subscribe replays the same events from the log', async () => {
    const { agent } = setup(['A', 'B'])
    const one = agent.followup('one')
    agent.followup('two')
    await agent.whenIdle()
    expect(labels((await settle(agent.reply$(one))).values)).toEqual(TURN_1)
  })

  it('R82: a steer: from its steering/message to the end of the turn it entered', async () => {
    const first = gate()
    const { agent, rec } = setup([first.reply, 'after'])
    agent.followup('go')
    await rec.when('step/start(1.1)')
    const id = agent.steer('shorter')
    const reply = settle(agent.reply$(id))
    first.release('long')
    expect(labels((await reply).values)).toEqual([
      'steering(shorter)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(after)',
      'step/end(1.2)',
      'turn/end(1,completed)',
    ])
  })

  it('R82: an inject while idle is its one user/message; one staged into a running turn follows that turn', async () => {
    const decision = deferred<undefined>()
    const { agent, rec } = setup(['ok'], { hooks: { promptSubmit: () => decision.promise } })
    const idle = agent.inject('fact')
    expect(labels((await settle(agent.reply$(idle))).values)).toEqual(['user(fact)'])
    agent.followup('go')
    await rec.when('dequeue(go)')
    const staged = agent.inject('late fact')
    const reply = settle(agent.reply$(staged))
    decision.resolve(undefined)
    expect(labels((await reply).values)).toEqual([
      'user(late fact)',
      'step/start(1.1)',
      'assistant(ok)',
      'step/end(1.1)',
      'turn/end(1,completed)',
    ])
  })

  it('R82: a removed message errors with MessageNotDeliveredError carrying its outcome', async () => {
    const { agent } = setup([])
    const id = agent.send('later', { target: 'next-turn', wakeup: false })
    const reply = settle(agent.reply$(id))
    agent.remove(id)
    const { values, error } = await reply
    expect(values).toEqual([])
    expect(error).toBeInstanceOf(MessageNotDeliveredError)
    expect((error as MessageNotDeliveredError).outcome).toEqual({ kind: 'discarded', reason: 'removed' })
    expect((error as Error).message).toMatch(/was discarded \(removed\)/)
  })

  it('R82: a prompt blocked by promptSubmit errors with outcome blocked, also when asked after the fact', async () => {
    const { agent } = setup([], { hooks: { promptSubmit: () => ({ kind: 'block', reason: 'no' }) } })
    const id = agent.followup('nope')
    const live = settle(agent.reply$(id))
    await agent.whenIdle()
    for (const { error } of [await live, await settle(agent.reply$(id))])
      expect((error as MessageNotDeliveredError).outcome).toEqual({ kind: 'blocked', reason: 'no' })
  })

  it('R82: an id sent from inside a delivery is followed once it leaves the trampoline', async () => {
    const { agent } = setup(['A', 'B'])
    const got: Promise<{ values: SessionEvent[]; error?: unknown }>[] = []
    agent.transcript$.subscribe((e) => {
      if (e.type === 'turn/start' && e.data.turn === 1) got.push(settle(agent.reply$(agent.followup('two'))))
    })
    agent.followup('one')
    await agent.whenIdle()
    const [reply] = await Promise.all(got)
    expect(reply?.error).toBeUndefined()
    expect(labels(reply?.values ?? [])).toEqual([
      'turn/start(2)',
      'user(two)',
      'step/start(2.1)',
      'assistant(B)',
      'step/end(2.1)',
      'turn/end(2,completed)',
    ])
  })

  it('R82: an id the agent never issued is InvalidInputError, as outcome() rejects; nothing changes', async () => {
    const { agent, rec } = setup(['A'])
    agent.inject('x')
    const before = { events: agent.session.events, inbox: agent.inbox, log: [...rec.log] }
    for (const bad of ['no-such-id', 42]) {
      const { values, error } = await settle(agent.reply$(bad as AgentMessageId))
      expect(values).toEqual([])
      expect(error).toBeInstanceOf(InvalidInputError)
      expect((error as Error).message).toMatch(/^reply\$\(\): id: /)
      await expect(agent.outcome(bad as AgentMessageId)).rejects.toBeInstanceOf(InvalidInputError)
    }
    expect(agent.session.events).toBe(before.events)
    expect(agent.inbox).toBe(before.inbox)
    expect(rec.log).toEqual(before.log)
    expect(agent.status).toBe('idle')
  })
})

describe('R82: the reply and outcome of a live message read no history', () => {
  it('R82: reply$, outcome and outcome$ of a waiting prompt, of the running prompt, of a steer and of a send still in the trampoline read none of the earlier turns', async () => {
    const history = spiedHistory(300)
    const first = held('long')
    const agent = createAgent({
      model: scriptedModel([first.reply, 'steered', 'next']),
      store: history.store,
    })
    const done = (id: AgentMessageId) => settle(agent.reply$(id))
    history.reset()
    const prompt = agent.followup('go')
    const replies = [done(prompt)]
    const outcomes = [agent.outcome(prompt), firstValueFrom(agent.outcome$(prompt))]
    await first.called
    // The prompt of the running turn, and a steer into it.
    replies.push(done(prompt))
    const steer = agent.steer('shorter')
    replies.push(done(steer))
    outcomes.push(agent.outcome(steer), firstValueFrom(agent.outcome$(steer)))
    const queued = agent.followup('then this')
    replies.push(done(queued))
    outcomes.push(agent.outcome(queued))
    // Sent from inside a delivery, so still in the trampoline when its reply is asked for.
    const fromDelivery: AgentMessageId[] = []
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/inbox/dequeue' && fromDelivery.length === 0) {
        const id = agent.followup('sent from a subscriber')
        fromDelivery.push(id)
        replies.push(done(id))
      }
    })
    first.push({ type: 'finish', reason: 'stop' })
    first.end()
    await agent.whenIdle()
    expect(fromDelivery).toHaveLength(1)
    for (const { error, values } of await Promise.all(replies)) {
      expect(error).toBeUndefined()
      expect(values.at(-1)?.type).toBe('turn/end')
    }
    expect((await Promise.all(outcomes)).map((o) => o.kind)).toEqual(Array(5).fill('delivered'))
    // The turns themselves read none of it either: what is counted is the handles' doing.
    expect(history.reads()).toBe(0)
  })
})

describe('R82: outcome$(id)', () => {
  it('R82: emits outcome(id) once and completes; an unknown id errors as outcome() rejects', async () => {
    const { agent } = setup(['A'])
    const id = agent.followup('one')
    const values = await lastValueFrom(agent.outcome$(id).pipe(toArray()))
    expect(values).toEqual([await agent.outcome(id)])
    expect(values[0]).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 1 })
    await expect(firstValueFrom(agent.outcome$('nope' as AgentMessageId))).rejects.toBeInstanceOf(
      InvalidInputError,
    )
  })
})

describe('R82: sendTo(agent, preset | SendOptions)', () => {
  it('R82: sends each value with the options and emits its id', async () => {
    const { agent } = setup([])
    const parked = { target: 'next-turn', wakeup: false } as const
    const ids = await lastValueFrom(
      from([
        'a',
        { content: [{ type: 'text' as const, text: 'b' }], source: { kind: 'user' as const } },
      ]).pipe(sendTo(agent, parked), toArray()),
    )
    expect(agent.inbox.queue.map((i) => [i.message.id, i.placement])).toEqual([
      [ids[0], 'parked'],
      [ids[1], 'parked'],
    ])
    const steered = await lastValueFrom(from(['c']).pipe(sendTo(agent, 'inject'), toArray()))
    expect(await agent.outcome(steered[0] as AgentMessageId)).toMatchObject({
      kind: 'delivered',
      as: 'context',
    })
  })

  it('R82: invalid options throw InvalidInputError when sendTo is called; nothing is sent', () => {
    const { agent, rec } = setup([])
    const bad: unknown[] = ['shout', { target: 'later', wakeup: true }, undefined, { target: 'next-turn' }]
    for (const options of bad) {
      expect(() => sendTo(agent, options as 'steer')).toThrow(InvalidInputError)
      expect(() => sendTo(agent, options as 'steer')).toThrow(/^sendTo\(\): options/)
    }
    expect(() => sendTo({} as Agent, 'steer')).toThrow(/^sendTo\(\): agent: expected an agent/)
    expect(rec.log).toEqual([])
    expect(agent.inbox.queue).toEqual([])
  })

  it('R82: a send that throws errors the stream with that error; the values before it stay sent', async () => {
    const { agent } = setup([])
    const parked = { target: 'next-turn', wakeup: false } as const
    const badValue = await settle(from(['ok', 7 as unknown as string, 'never']).pipe(sendTo(agent, parked)))
    expect(badValue.values).toHaveLength(1)
    expect(badValue.error).toBeInstanceOf(InvalidInputError)
    expect(agent.inbox.queue.map((i) => i.message.id)).toEqual(badValue.values)
    await agent.dispose()
    const disposed = await settle(from(['x']).pipe(sendTo(agent, 'followup')))
    expect(disposed).toEqual({ values: [], error: expect.any(AgentDisposedError) })
  })
})

describe('R82: the public entry', () => {
  it('R82: exports sendTo, ofType and surfaceMessages, and no longer the internal splitSends and trampoline', () => {
    const entry = steerable as Record<string, unknown>
    expect(typeof entry.sendTo).toBe('function')
    expect(typeof entry.ofType).toBe('function')
    expect(typeof entry.surfaceMessages).toBe('function')
    expect(entry.splitSends).toBeUndefined()
    expect(entry.trampoline).toBeUndefined()
  })
})
