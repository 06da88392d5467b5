import { describe, expect, it } from 'vitest'
import { type Agent, InvalidInputError } from '../../src/index.js'
import { FOLLOWUP, gate, INJECT, oneTurn, PARKED, STEER, setup } from '../support/agents.js'

/** Calls that bypass the static types on purpose: the run-time check is what is under test. */
type Loose = {
  send(input: unknown, options?: unknown): unknown
  followup(input: unknown): unknown
  steer(input: unknown): unknown
  inject(input: unknown): unknown
  cancel(cause?: unknown, options?: unknown): unknown
}
const loose = (agent: Agent): Loose => agent as unknown as Loose

const user = { kind: 'user' }
const text = (t: string) => [{ type: 'text', text: t }]
const withSource = (source: unknown) => ({ content: text('x'), source })
const cycle: Record<string, unknown> = { kind: 'custom' }
cycle.self = cycle

type BadCall = readonly [name: string, call: (a: Loose) => unknown, message: string]

const badCalls: readonly BadCall[] = [
  [
    'send: missing input',
    (a) => a.send(undefined, FOLLOWUP),
    'send(): input: required: a string, or {content, source}',
  ],
  [
    'send: a number',
    (a) => a.send(42, FOLLOWUP),
    'send(): input: expected a string or a plain object {content, source}',
  ],
  [
    'send: text not a string',
    (a) => a.send({ content: [{ type: 'text', text: 1 }], source: user }, FOLLOWUP),
    'send(): input.content[0].text: expected string',
  ],
  [
    'followup: empty content',
    (a) => a.followup({ content: [], source: user }),
    "followup(): input.content: must not be empty: a non-empty array of blocks such as [{type: 'text', text: 'hi'}]; to send plain text, pass the string itself instead of {content, source}",
  ],
  [
    'followup: missing content',
    (a) => a.followup({ source: user }),
    "followup(): input.content: required: a non-empty array of blocks such as [{type: 'text', text: 'hi'}]; to send plain text, pass the string itself instead of {content, source}",
  ],
  [
    'followup: content is a string',
    (a) => a.followup({ content: 'hi', source: user }),
    "followup(): input.content: expected a non-empty array of blocks such as [{type: 'text', text: 'hi'}], not a string; to send plain text, pass the string itself instead of {content, source}",
  ],
  [
    'followup: unknown block type',
    (a) => a.followup({ content: [{ type: 'video', url: 'x' }], source: user }),
    'followup(): input.content[0].type: unknown block type "video"',
  ],
  [
    'followup: unknown key on a block',
    (a) => a.followup({ content: [{ type: 'text', text: 'x', extra: 1 }], source: user }),
    'followup(): input.content[0].extra: unknown key',
  ],
  [
    'followup: missing source',
    (a) => a.followup({ content: text('x') }),
    "followup(): input.source: required (for example {kind: 'user'})",
  ],
  [
    'followup: source without kind',
    (a) => a.followup(withSource({})),
    'followup(): input.source.kind: required',
  ],
  [
    'followup: kind not a string',
    (a) => a.followup(withSource({ kind: 1 })),
    'followup(): input.source.kind: expected string',
  ],
  [
    'followup: empty kind',
    (a) => a.followup(withSource({ kind: '' })),
    'followup(): input.source.kind: must not be empty',
  ],
  [
    'steer: plugin source without plugin',
    (a) => a.steer(withSource({ kind: 'plugin' })),
    'steer(): input.source.plugin: required',
  ],
  [
    'steer: malformed goal source',
    (a) => a.steer(withSource({ kind: 'goal', goalId: 'g', revision: -1, round: 0 })),
    'steer(): input.source.revision: must be >= 0',
  ],
  [
    'steer: tool source with a numeric tool',
    (a) => a.steer(withSource({ kind: 'tool', tool: 3 })),
    'steer(): input.source.tool: expected string',
  ],
  [
    'steer: BigInt',
    (a) => a.steer(withSource({ kind: 'user', n: 1n })),
    'steer(): input.source.n: BigInt is not JSON',
  ],
  [
    'inject: function',
    (a) => a.inject(withSource({ kind: 'user', f: () => 1 })),
    'inject(): input.source.f: function is not JSON',
  ],
  [
    'inject: symbol',
    (a) => a.inject(withSource({ kind: 'user', s: Symbol('s') })),
    'inject(): input.source.s: symbol is not JSON',
  ],
  [
    'inject: undefined in an array',
    (a) => a.inject({ content: [undefined], source: user }),
    'inject(): input.content[0]: undefined is not JSON',
  ],
  [
    'inject: NaN',
    (a) => a.inject(withSource({ kind: 'custom', n: Number.NaN })),
    'input.source.n: NaN is not JSON',
  ],
  [
    'inject: Infinity',
    (a) => a.inject(withSource({ kind: 'custom', n: Number.POSITIVE_INFINITY })),
    'inject(): input.source.n: Infinity is not JSON',
  ],
  [
    'inject: cycle',
    (a) => a.inject(withSource(cycle)),
    'inject(): input.source.self: circular reference to input.source',
  ],
  [
    'inject: class instance',
    (a) => a.inject(withSource({ kind: 'custom', at: new Date(0) })),
    'inject(): input.source.at: Date instance is not plain JSON',
  ],
  [
    'inject: bad tool-result block',
    (a) =>
      a.inject({
        content: [{ type: 'tool-result', toolCallId: 'c', content: [], isError: 'no' }],
        source: user,
      }),
    'inject(): input.content[0].isError: expected boolean',
  ],
  [
    'send options: missing',
    (a) => a.send('x', undefined),
    "send(): options: required: {target: 'next-turn' | 'next-step', wakeup: boolean}; or call followup(), steer() or inject()",
  ],
  [
    'send options: unknown target',
    (a) => a.send('x', { target: 'now', wakeup: true }),
    'send(): options.target: expected one of "next-turn", "next-step"',
  ],
  [
    'send options: missing wakeup',
    (a) => a.send('x', { target: 'next-turn' }),
    'send(): options.wakeup: required',
  ],
  [
    'send options: wakeup not boolean',
    (a) => a.send('x', { target: 'next-step', wakeup: 'yes' }),
    'send(): options.wakeup: expected boolean',
  ],
  [
    'send options: extra key',
    (a) => a.send('x', { target: 'next-turn', wakeup: true, priority: 1 }),
    'send(): options.priority: unknown key',
  ],
  [
    'cancel: missing cause',
    (a) => a.cancel(),
    "cancel(): cause: required: {kind: 'user'} or {kind: 'parent'}",
  ],
  ['cancel: unknown kind', (a) => a.cancel({ kind: 'nope' }), 'cancel(): cause.kind: unknown kind "nope"'],
  [
    'cancel: the internal disposed cause',
    (a) => a.cancel({ kind: 'disposed' }),
    'cancel(): cause.kind: unknown kind "disposed"',
  ],
  [
    'cancel: extra key on the cause',
    (a) => a.cancel({ kind: 'user', extra: 1 }),
    'cancel(): cause.extra: unknown key',
  ],
  [
    'cancel options: keepInbox not boolean',
    (a) => a.cancel({ kind: 'user' }, { keepInbox: 'yes' }),
    'cancel(): options.keepInbox: expected boolean',
  ],
  [
    'cancel options: unknown key',
    (a) => a.cancel({ kind: 'parent' }, { keep: true }),
    'cancel(): options.keep: unknown key; the only option is keepInbox',
  ],
]

const expectRefused = (call: () => unknown, message: string): void => {
  let error: unknown
  try {
    call()
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(InvalidInputError)
  expect(error).toBeInstanceOf(TypeError)
  const refused = error as InvalidInputError
  expect(refused.name).toBe('InvalidInputError')
  expect(refused.issues.length).toBeGreaterThan(0)
  expect(refused.message).toContain(message)
}

describe('R2: bad input is refused synchronously and leaves no trace', () => {
  it('R2: at least 20 distinct malformed inputs are covered', () => {
    expect(badCalls.length).toBeGreaterThanOrEqual(20)
    expect(new Set(badCalls.map(([name]) => name)).size).toBe(badCalls.length)
  })

  it.each(badCalls)('R2: %s, while idle', async (_name, call, message) => {
    const { agent, model, rec } = setup(['ok'])
    expectRefused(() => call(loose(agent)), message)
    expect(rec.log).toEqual([])
    expect(rec.live).toEqual([])
    expect(agent.status).toBe('idle')
    expect(agent.acceptsNextStep).toBe(false)
    expect(agent.session.events).toEqual([])
    await agent.whenIdle()
    expect(rec.log).toEqual([])
    expect(model.requests).toHaveLength(0)
    // A later valid send gets the next turn normally.
    agent.followup('next')
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(next,queued)', ...oneTurn('next', 'ok')])
  })

  it.each(badCalls)('R2: %s, while a turn runs', async (_name, call, message) => {
    const g = gate()
    const { agent, rec } = setup([g.reply, 'ok'])
    agent.followup('first')
    await rec.when('step/start(1.1)')
    const before = rec.log.slice()
    const events = agent.session.events
    expectRefused(() => call(loose(agent)), message)
    expect(rec.log).toEqual(before)
    expect(agent.status).toBe('running')
    expect(agent.acceptsNextStep).toBe(true)
    expect(agent.session.events).toEqual(events)
    g.release('done')
    await agent.whenIdle()
    agent.followup('next')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(first,queued)',
      ...oneTurn('first', 'done', 1),
      'enqueue(next,queued)',
      ...oneTurn('next', 'ok', 2),
    ])
  })

  it('R2: the issues list every problem with its path', () => {
    const { agent } = setup()
    try {
      loose(agent).followup({ content: [{ type: 'text', text: 1 }, { type: 'text' }], source: { kind: 1 } })
      expect.unreachable()
    } catch (e) {
      const issues = (e as InvalidInputError).issues.map((i) => i.path.join('.'))
      expect(issues).toEqual(expect.arrayContaining(['input.content.0.text', 'input.content.1.text']))
      expect(issues).toContain('input.source.kind')
    }
  })

  it('R2: object keys whose value is undefined are dropped, as JSON does', async () => {
    const { agent, rec } = setup(['ok'])
    agent.followup({ content: [{ type: 'text', text: 'hi' }], source: { kind: 'user', note: undefined } })
    await agent.whenIdle()
    const enqueue = rec.live.find((e) => e.type === 'agent/inbox/enqueue')
    expect(enqueue?.type === 'agent/inbox/enqueue' && Object.keys(enqueue.message.source)).toEqual(['kind'])
    const prompt = rec.durable.find((e) => e.type === 'user/message')
    expect(prompt?.data.source).toStrictEqual({ kind: 'user' })
  })

  it('R2: other kinds pass as plain JSON, and extra fields on a known kind are kept', async () => {
    const { agent, rec } = setup()
    agent.inject({
      content: [{ type: 'text', text: 'a' }],
      source: { kind: 'memory', slot: [1, { x: null }] },
    })
    agent.inject({
      content: [{ type: 'text', text: 'b' }],
      source: { kind: 'plugin', plugin: '', extra: true },
    })
    await agent.whenIdle()
    expect(rec.durable.map((e) => e.type === 'user/message' && e.data.source)).toEqual([
      { kind: 'memory', slot: [1, { x: null }] },
      { kind: 'plugin', plugin: '', extra: true },
    ])
  })
})

const nonJson: readonly [string, unknown][] = [
  ['BigInt', { kind: 'user', n: 2n }],
  ['a function', { kind: 'user', f: () => 0 }],
  ['NaN', { kind: 'user', n: Number.NaN }],
  ['a Map', { kind: 'user', m: new Map() }],
]

describe('V4: non-JSON input is refused at send, on every route', () => {
  const routes = [
    ['followup', (a: Loose, input: unknown) => a.followup(input)],
    ['steer', (a: Loose, input: unknown) => a.steer(input)],
    ['inject', (a: Loose, input: unknown) => a.inject(input)],
    ['send parked', (a: Loose, input: unknown) => a.send(input, PARKED)],
    ['send next-step', (a: Loose, input: unknown) => a.send(input, STEER)],
    ['send inject', (a: Loose, input: unknown) => a.send(input, INJECT)],
  ] as const

  for (const [what, source] of nonJson) {
    it.each(routes)(`V4: %s with ${what} while idle is refused, nothing happens`, async (_route, call) => {
      const { agent, model, rec } = setup(['ok'])
      expect(() => call(loose(agent), withSource(source))).toThrow(InvalidInputError)
      await agent.whenIdle()
      expect(rec.log).toEqual([])
      expect(agent.session.events).toEqual([])
      expect(model.requests).toHaveLength(0)
    })

    it.each(routes)(
      `V4: %s with ${what} while a turn runs is refused, the turn goes on`,
      async (_route, call) => {
        const g = gate()
        const { agent, model, rec } = setup([g.reply])
        agent.followup('go')
        await rec.when('step/start(1.1)')
        expect(() => call(loose(agent), withSource(source))).toThrow(InvalidInputError)
        g.release('done')
        await agent.whenIdle()
        expect(rec.log).toEqual(['enqueue(go,queued)', ...oneTurn('go', 'done')])
        expect(model.requests).toHaveLength(1)
      },
    )
  }
})

describe('V5: the cancel cause and options are validated at run time', () => {
  const bad: readonly [string, unknown, unknown, string][] = [
    ['an extra key', { kind: 'user', extra: 1 }, undefined, 'cancel(): cause.extra: unknown key'],
    ['an unknown kind', { kind: 'nope' }, undefined, 'cancel(): cause.kind: unknown kind "nope"'],
    [
      'keepInbox not boolean',
      { kind: 'user' },
      { keepInbox: 'yes' },
      'cancel(): options.keepInbox: expected boolean',
    ],
  ]

  it.each(bad)(
    'V5: a cause with %s is refused and the turn is not cancelled',
    async (_n, cause, options, msg) => {
      const g = gate()
      const { agent, rec } = setup([g.reply, 'ok'])
      agent.followup('go')
      agent.followup('then')
      await rec.when('step/start(1.1)')
      expectRefused(() => loose(agent).cancel(cause, options), msg)
      g.release('done')
      await agent.whenIdle()
      const [running, ...turn1] = oneTurn('go', 'done', 1)
      expect(rec.log).toEqual([
        'enqueue(go,queued)',
        'enqueue(then,queued)',
        running,
        ...turn1.slice(0, -1),
        ...oneTurn('then', 'ok', 2).slice(1),
      ])
    },
  )

  it('V5: the abort reason is a frozen copy of the validated cause', async () => {
    const reasons: unknown[] = []
    const { agent, rec } = setup([
      (request) => {
        request.signal.addEventListener('abort', () => reasons.push(request.signal.reason))
        return gate().reply
      },
    ])
    agent.followup('go')
    await rec.when('step/start(1.1)')
    const cause = { kind: 'parent' } as const
    agent.cancel(cause)
    await agent.whenIdle()
    expect(reasons).toEqual([{ kind: 'parent' }])
    expect(reasons[0]).not.toBe(cause)
    expect(Object.isFrozen(reasons[0])).toBe(true)
  })
})
