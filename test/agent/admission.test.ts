import { of, throwError } from 'rxjs'
import { describe, expect, it } from 'vitest'
import type {
  Agent,
  AgentEvent,
  AgentHooks,
  ContentBlock,
  PromptDecision,
  SessionEvent,
} from '../../src/index.js'
import { InvalidInputError } from '../../src/index.js'
import type { ScriptedReply } from '../../src/testing.js'
import { deferred, type Recording, setup, texts } from '../support/agents.js'
import { answered, oneTurn } from '../support/labels.js'

const textOf = (content: readonly ContentBlock[]): string =>
  content[0]?.type === 'text' ? content[0].text : '?'

/**
 * A `promptSubmit` hook that records each call and answers from `decide`; a decision may be a
 * promise the test settles later. `started` resolves at each call.
 */
const controlledHook = (decide: (text: string, agent: Agent) => unknown) => {
  const calls: { text: string; log: string[]; signal: AbortSignal }[] = []
  let onCall: (() => void) | undefined
  const started = (): Promise<void> =>
    new Promise((resolve) => {
      onCall = resolve
    })
  let rec: Recording | undefined
  const hook = ({
    agent,
    content,
    signal,
  }: {
    agent: Agent
    content: readonly ContentBlock[]
    signal: AbortSignal
  }) => {
    calls.push({ text: textOf(content), log: rec ? rec.log.slice() : [], signal })
    const result = decide(textOf(content), agent)
    onCall?.()
    return result as PromptDecision | undefined
  }
  return { hook, calls, started, attach: (r: Recording) => (rec = r) }
}

/**
 * An agent on `script` whose `promptSubmit` hook is `controlledHook(decide)` (beside `hooks`), the
 * hook attached to the agent's recording.
 */
const hooked = (
  script: readonly ScriptedReply[],
  decide: (text: string, agent: Agent) => unknown,
  hooks: Omit<AgentHooks<Agent>, 'promptSubmit'> = {},
) => {
  const h = controlledHook(decide)
  const ctx = setup(script, { hooks: { promptSubmit: h.hook, ...hooks } })
  h.attach(ctx.rec)
  return { ...ctx, h }
}

/** A `promptSubmit` hook that answers the prompt `x` with `decide()` and allows any other. */
const decideX =
  (decide: () => PromptDecision) =>
  ({ content }: { content: readonly ContentBlock[] }): PromptDecision | undefined =>
    textOf(content) === 'x' ? decide() : undefined

const userMessages = (events: readonly SessionEvent[]) =>
  events.flatMap((e) => (e.type === 'user/message' ? [e.data] : []))

describe('R10: claim', () => {
  it('R10: the claim opens the window, publishes running, then dequeue, and only then starts promptSubmit', async () => {
    const seen: [string, boolean][] = []
    const { agent, rec, h } = hooked(['ok'], () => undefined)
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/status' && e.status === 'running') seen.push(['running', agent.acceptsNextStep])
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(seen).toEqual([['running', true]])
    expect(h.calls.map((c) => c.log)).toEqual([['enqueue(a,queued)', 'running', 'dequeue(a)']])
    expect(rec.log).toEqual(['enqueue(a,queued)', ...oneTurn('a', 'ok')])
  })

  it('R10: calls made by dequeue subscribers are processed before the hook starts', async () => {
    const { agent, rec } = hooked(['ok'], () => undefined)
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/inbox/dequeue' && textOf(e.message.content) === 'a') agent.inject('from-dequeue')
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'user(from-dequeue)',
      'step/start(1.1)',
      ...answered('ok'),
      'idle',
    ])
  })
})

describe('R11: admission', () => {
  it('R11: promptSubmit runs once per claimed item, never for steering or context', async () => {
    const { agent, h } = hooked(['1', '2', '3'], (text, a) => {
      if (text === 'a') {
        a.steer('s')
        a.inject('c')
      }
      return undefined
    })
    agent.followup('a')
    agent.followup('b')
    await agent.whenIdle()
    agent.steer('idle-steer')
    agent.inject('idle-inject')
    await agent.whenIdle()
    expect(h.calls.map((c) => c.text)).toEqual(['a', 'b', 'idle-steer'])
  })

  it('R11: the hook gets the original content and source; the default decision is allow', async () => {
    const args: unknown[] = []
    const source = { kind: 'plugin', plugin: 'p', extra: 1 }
    const { agent, rec } = setup(['ok'], {
      hooks: {
        promptSubmit: ({ content, source: s }) => {
          args.push({ content, source: s })
        },
      },
    })
    agent.followup({ content: [{ type: 'text', text: 'a' }], source })
    await agent.whenIdle()
    expect(args).toEqual([{ content: [{ type: 'text', text: 'a' }], source }])
    expect(rec.log).toEqual(['enqueue(a,queued)', ...oneTurn('a', 'ok')])
  })

  it('R11: an array of hooks runs in order: each sees the rewrite so far, contexts accumulate, first block wins', async () => {
    const seen: string[] = []
    const { agent, rec } = setup(['ok'], {
      hooks: {
        promptSubmit: [
          ({ content }) => {
            seen.push(`1:${textOf(content)}`)
            return { kind: 'allow', content: `${textOf(content)}+1`, additionalContexts: ['c1'] }
          },
          ({ content }) => {
            seen.push(`2:${textOf(content)}`)
            return Promise.resolve({
              kind: 'allow',
              content: `${textOf(content)}+2`,
              additionalContexts: ['c2'],
            })
          },
          ({ content }) => {
            seen.push(`3:${textOf(content)}`)
            return of({ kind: 'block', reason: textOf(content) === 'b+1+2' ? 'no b' : undefined } as const)
          },
          ({ content }) => {
            seen.push(`4:${textOf(content)}`)
            return undefined
          },
        ],
      },
    })
    agent.followup('b')
    await agent.whenIdle()
    expect(seen).toEqual(['1:b', '2:b+1', '3:b+1+2'])
    expect(rec.log).toEqual(['enqueue(b,queued)', 'running', 'dequeue(b)', 'idle'])
  })

  it('R11: input sent while the hook runs obeys R4 with the window open', async () => {
    const decision = deferred<PromptDecision>()
    const { agent, rec, h } = hooked(['ok', 'ok2'], () => decision.promise)
    const started = h.started()
    agent.followup('a')
    await started
    expect(agent.acceptsNextStep).toBe(true)
    agent.steer('s')
    agent.inject('c')
    agent.followup('f')
    expect(rec.log.slice(-2)).toEqual(['enqueue(s,steering)', 'enqueue(f,queued)'])
    decision.resolve({ kind: 'allow' })
    await rec.when('turn/end(1,completed)')
    expect(rec.log.slice(3, 11)).toEqual([
      'enqueue(s,steering)',
      'enqueue(f,queued)',
      'turn/start(1)',
      'user(a)',
      'dequeue(s)',
      'steering(s)',
      'user(c)',
      'step/start(1.1)',
    ])
    await agent.whenIdle()
  })
})

describe('R12: allowed admission write order', () => {
  it('R12: inherited prefix, rewritten prompt, additional contexts, then admission-time input, then step 1', async () => {
    const blockDecision = deferred<PromptDecision>()
    const goDecision = deferred<PromptDecision>()
    const stepViews: string[][] = []
    const { agent, model, rec, h } = hooked(
      ['ok'],
      (text) => (text === 'blocked' ? blockDecision.promise : goDecision.promise),
      {
        step: ({ agent: a, step }) => {
          if (step === 1) stepViews.push(texts(a.session.messages()))
        },
      },
    )

    // A rejected admission with steering staged: the whole outbox stays for the next admission.
    let started = h.started()
    agent.followup('blocked')
    await started
    const s0 = agent.steer('s0')
    const c0 = agent.inject('c0')
    blockDecision.resolve({ kind: 'block', reason: 'not now' })
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(blocked,queued)',
      'running',
      'dequeue(blocked)',
      'enqueue(s0,steering)',
      'idle',
    ])
    expect(agent.session.events).toEqual([])

    started = h.started()
    const go = agent.followup('go')
    await started
    const c1 = agent.inject('c1')
    const s1 = agent.steer('s1')
    goDecision.resolve({
      kind: 'allow',
      content: [{ type: 'text', text: 'GO!' }],
      additionalContexts: [
        'ctx-a',
        { content: [{ type: 'text', text: 'ctx-b' }], source: { kind: 'plugin', plugin: 'x' } },
      ],
    })
    await agent.whenIdle()
    expect(rec.log.slice(5)).toEqual([
      'enqueue(go,queued)',
      'running',
      'dequeue(go)',
      'enqueue(s1,steering)',
      'turn/start(1)',
      'dequeue(s0)',
      'steering(s0)',
      'user(c0)',
      'user(GO!)',
      'user(ctx-a)',
      'user(ctx-b)',
      'user(c1)',
      'dequeue(s1)',
      'steering(s1)',
      'step/start(1.1)',
      ...answered('ok'),
      'idle',
    ])
    const order = ['s0', 'c0', 'GO!', 'ctx-a', 'ctx-b', 'c1', 's1']
    expect(stepViews).toEqual([order])
    expect(texts(model.requests[0]?.messages ?? [])).toEqual(order)
    // The prompt keeps its original source and carries its id, which the turn's trigger names;
    // contexts carry their ids; additional contexts none.
    const start = rec.durable.find((e) => e.type === 'turn/start')
    expect(start?.data).toStrictEqual({
      turn: 1,
      trigger: { kind: 'message', source: { kind: 'user' }, id: go },
    })
    const users = userMessages(rec.durable)
    expect(users.map((u) => [textOf(u.content), u.id])).toEqual([
      ['c0', c0],
      ['GO!', go],
      ['ctx-a', undefined],
      ['ctx-b', undefined],
      ['c1', c1],
    ])
    expect(users[1]?.source).toStrictEqual({ kind: 'user' })
    expect(users[3]?.source).toStrictEqual({ kind: 'plugin', plugin: 'x' })
    const steering = rec.durable.flatMap((e) => (e.type === 'steering/message' ? [e.data] : []))
    expect(steering.map((s) => [textOf(s.content), s.id, s.turn])).toEqual([
      ['s0', s0, 1],
      ['s1', s1, 1],
    ])
  })

  it('R12: the content rewrite replaces the content only; the source stays the original', async () => {
    const source = { kind: 'plugin', plugin: 'cron' } as const
    const { agent, rec } = setup(['ok'], {
      hooks: { promptSubmit: () => ({ kind: 'allow', content: 'rewritten' }) },
    })
    agent.followup({ content: [{ type: 'text', text: 'orig' }], source })
    await agent.whenIdle()
    expect(rec.log).toContain('user(rewritten)')
    expect(userMessages(rec.durable)[0]?.source).toStrictEqual(source)
  })
})

describe('R13: rejected admission', () => {
  it('R13: block writes nothing of the prompt: no turn/start, no turn/end, no settled; the window closes', async () => {
    const { agent, model, rec } = setup(['ok'], {
      hooks: { promptSubmit: () => ({ kind: 'block', reason: 'no' }) },
    })
    agent.followup('x')
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(x,queued)', 'running', 'dequeue(x)', 'idle'])
    expect(agent.session.events).toEqual([])
    expect(agent.acceptsNextStep).toBe(false)
    expect(model.requests).toHaveLength(0)
  })

  const failures: [string, () => unknown][] = [
    [
      'a throwing hook',
      () => {
        throw new Error('boom')
      },
    ],
    ['a rejected promise', () => Promise.reject(new Error('boom'))],
    ['an erroring Observable', () => throwError(() => new Error('boom'))],
    ['an invalid decision', () => ({ kind: 'allow', content: [] })],
    ['an unknown decision kind', () => ({ kind: 'maybe' })],
  ]

  it.each(failures)(
    'R13: %s is reported on agent/error with the would-be turn and step 0',
    async (_name, fail) => {
      const { agent, rec } = setup([], { hooks: { promptSubmit: fail as () => undefined } })
      agent.followup('x')
      await agent.whenIdle()
      expect(rec.log).toEqual(['enqueue(x,queued)', 'running', 'dequeue(x)', 'error(1.0)', 'idle'])
      const error = rec.live.find((e) => e.type === 'agent/error')
      expect(error).toMatchObject({ type: 'agent/error', turn: 1, step: 0, agentId: agent.id })
      expect(error?.type === 'agent/error' && error.error).toBeInstanceOf(Error)
    },
  )

  it('R13, R2: an invalid decision is refused with every problem of it listed at once', async () => {
    const decision = { kind: 'maybe', content: [], additionalContexts: [7, 'fine', { content: 'x' }] }
    const { agent, rec } = setup([], { hooks: { promptSubmit: () => decision as never } })
    agent.followup('x')
    await agent.whenIdle()
    const error = rec.live.find((e) => e.type === 'agent/error')
    const refused = error?.type === 'agent/error' ? error.error : undefined
    expect(refused).toBeInstanceOf(InvalidInputError)
    expect((refused as InvalidInputError).issues.map((i) => i.path.join('.'))).toEqual([
      'decision.kind',
      'decision.content',
      'decision.additionalContexts.0',
      'decision.additionalContexts.2.content',
      'decision.additionalContexts.2.source',
    ])
  })

  it('R13: the error names the turn the prompt would have opened, continuing from history', async () => {
    const first = setup(['one', 'two'])
    first.agent.followup('a')
    first.agent.followup('b')
    await first.agent.whenIdle()
    const { agent, rec } = setup([], {
      history: first.agent.session.events,
      hooks: {
        promptSubmit: () => {
          throw new Error('boom')
        },
      },
    })
    agent.followup('x')
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(x,queued)', 'running', 'dequeue(x)', 'error(3.0)', 'idle'])
  })

  it('R13: with no steering staged, contexts are appended at once, outside any turn, in order', async () => {
    const decision = deferred<PromptDecision>()
    const { agent, rec, h } = hooked([], () => decision.promise)
    const started = h.started()
    const id = agent.followup('x')
    await started
    const c1 = agent.inject('c1')
    const c2 = agent.inject('c2')
    decision.resolve({ kind: 'block', reason: 'no' })
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(x,queued)', 'running', 'dequeue(x)', 'user(c1)', 'user(c2)', 'idle'])
    expect(userMessages(rec.durable).map((u) => u.id)).toEqual([c1, c2])
    expect(userMessages(rec.durable).map((u) => u.id)).not.toContain(id)
  })

  it('R13: contexts are appended after the agent/error of a failed hook', async () => {
    const decision = deferred<PromptDecision>()
    const { agent, rec, h } = hooked([], () => decision.promise)
    const started = h.started()
    agent.followup('x')
    await started
    agent.inject('c1')
    decision.reject(new Error('boom'))
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(x,queued)', 'running', 'dequeue(x)', 'error(1.0)', 'user(c1)', 'idle'])
  })

  it('R13: with steering staged, the whole outbox stays and becomes the next admitted turn’s inherited prefix', async () => {
    const decision = deferred<PromptDecision>()
    const { agent, rec, h } = hooked(['ok'], (text) => (text === 'x' ? decision.promise : undefined))
    const started = h.started()
    agent.followup('x')
    await started
    agent.inject('c1')
    agent.steer('s')
    agent.inject('c2')
    decision.resolve({ kind: 'block', reason: 'no' })
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(x,queued)', 'running', 'dequeue(x)', 'enqueue(s,steering)', 'idle'])
    expect(agent.session.events).toEqual([])
    agent.followup('y')
    await agent.whenIdle()
    expect(rec.log.slice(5)).toEqual([
      'enqueue(y,queued)',
      'running',
      'dequeue(y)',
      'turn/start(1)',
      'user(c1)',
      'dequeue(s)',
      'steering(s)',
      'user(c2)',
      'user(y)',
      'step/start(1.1)',
      ...answered('ok'),
      'idle',
    ])
  })

  it('R13: after a rejection the driver claims the next waking item with no idle between', async () => {
    const { agent, rec } = setup(['ok'], {
      hooks: { promptSubmit: decideX(() => ({ kind: 'block', reason: 'no' })) },
    })
    agent.followup('x')
    agent.followup('y')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(x,queued)',
      'enqueue(y,queued)',
      'running',
      'dequeue(x)',
      ...oneTurn('y', 'ok', 1).slice(1),
    ])
  })

  it('R13: cancel during admission rejects it: the hook signal aborts, nothing of the prompt is written', async () => {
    const decision = deferred<PromptDecision>()
    const { agent, rec, h } = hooked(['ok'], () => decision.promise)
    const started = h.started()
    agent.followup('x')
    await started
    agent.inject('c')
    agent.cancel({ kind: 'user' })
    expect(h.calls[0]?.signal.aborted).toBe(true)
    expect(h.calls[0]?.signal.reason).toStrictEqual({ kind: 'user' })
    await agent.whenIdle()
    decision.resolve({ kind: 'allow' })
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(x,queued)', 'running', 'dequeue(x)', 'cancel(user)', 'user(c)', 'idle'])
    expect(agent.session.events.map((e) => e.type)).toEqual(['user/message'])
  })
})

describe('R13b: the next move after a rejected admission is scheduled', () => {
  /**
   * The subscriber and the admission (for the name), how `x` is refused, what sends `y`, and the labels
   * between.
   */
  const refusals: [string, string, () => PromptDecision, (e: AgentEvent) => boolean, string[]][] = [
    [
      'dequeue',
      'blocked claim',
      () => ({ kind: 'block', reason: 'no' }),
      (e) => e.type === 'agent/inbox/dequeue' && textOf(e.message.content) === 'x',
      [],
    ],
    [
      'agent/error',
      'failed admission',
      () => {
        throw new Error('boom')
      },
      (e) => e.type === 'agent/error',
      ['error(1.0)'],
    ],
  ]
  it.each(refusals)(
    'R13b: a followup from the %s subscriber of a %s runs next, with no idle between',
    async (_subscriber, _admission, refuse, sends, between) => {
      const { agent, rec } = setup(['ok'], { hooks: { promptSubmit: decideX(refuse) } })
      agent.events$.subscribe((e) => {
        if (sends(e)) agent.followup('y')
      })
      agent.followup('x')
      await agent.whenIdle()
      expect(rec.log).toEqual([
        'enqueue(x,queued)',
        'running',
        'dequeue(x)',
        ...between,
        'enqueue(y,queued)',
        ...oneTurn('y', 'ok', 1).slice(1),
      ])
    },
  )
})

describe('R14: cancel before the hook runs', () => {
  it('R14: a cancel from a running subscriber stops the claim before the hook starts', async () => {
    const { agent, rec, h } = hooked(['ok'], () => undefined)
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/status' && e.status === 'running') agent.cancel({ kind: 'user' })
    })
    agent.followup('x')
    await agent.whenIdle()
    expect(h.calls).toEqual([])
    expect(rec.log).toEqual(['enqueue(x,queued)', 'running', 'cancel(user)', 'discard(x)', 'idle'])
    expect(agent.session.events).toEqual([])
  })

  it('R14: a cancel from a dequeue subscriber stops the claim before the hook starts', async () => {
    const { agent, rec, h } = hooked(['ok'], () => undefined)
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/inbox/dequeue') agent.cancel({ kind: 'user' })
    })
    agent.followup('x')
    await agent.whenIdle()
    expect(h.calls).toEqual([])
    expect(rec.log).toEqual(['enqueue(x,queued)', 'running', 'dequeue(x)', 'cancel(user)', 'idle'])
  })
})
