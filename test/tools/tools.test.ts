/**
 * Tools end to end through the public API: ToolSpecs reach the model, createAgent refuses bad tool
 * definitions, what `execute` returns becomes the recorded result, the batch runner's order and
 * parallelism, tool context (R21, R22), concludeTurn (R17) and max-tokens (R18).
 */
import { Observable, of } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  type Agent,
  type AgentOptions,
  createAgent,
  defineTool,
  InvalidInputError,
  type Message,
  type ModelEvent,
  type ToolDefinition,
  type ToolResultBlock,
} from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { deferred, delay, run, textOf } from '../support/agents.js'
import { answered, opening } from '../support/labels.js'
import { agentOf, calls, noArgs, resultsOf, toolTurn } from '../support/tools.js'

describe('tool definitions', () => {
  it('R21b, section 3: each ToolSpec (name, description, JSON Schema from z.toJSONSchema) reaches ModelRequest.tools of every request', async () => {
    const searchParams = z.object({
      q: z.string().describe('what to look for'),
      limit: z.number().int().min(1).optional(),
    })
    const search = defineTool({
      name: 'search',
      description: 'Searches the web.',
      parameters: searchParams,
      execute: ({ q }) => `found ${q}`,
    })
    const clock = defineTool({
      name: 'clock',
      description: 'Tells the time.',
      parameters: noArgs,
      execute: () => 'noon',
    })
    const { agent, model, log } = run(
      [{ toolCalls: [{ name: 'search', arguments: '{"q":"rx"}' }] }, 'done'],
      {
        tools: [search, clock],
      },
    )
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual(toolTurn(['search']))
    const expected = [
      { name: 'search', description: 'Searches the web.', parameters: z.toJSONSchema(searchParams) },
      { name: 'clock', description: 'Tells the time.', parameters: z.toJSONSchema(noArgs) },
    ]
    expect(model.requests).toHaveLength(2)
    for (const request of model.requests) expect(request.tools).toEqual(expected)
    const parameters = model.requests[0]?.tools[0]?.parameters as {
      type: string
      properties: Record<string, { type: string; description?: string }>
      required: string[]
    }
    expect(parameters.type).toBe('object')
    expect(parameters.properties.q).toMatchObject({ type: 'string', description: 'what to look for' })
    expect(parameters.properties.limit).toMatchObject({ type: 'integer' })
    expect(parameters.required).toEqual(['q'])
  })

  it('section 3: an agent without tools sends an empty tools list', async () => {
    const { agent, model } = run(['hi'])
    agent.followup('go')
    await agent.whenIdle()
    expect(model.requests[0]?.tools).toEqual([])
  })

  const ok = defineTool({ name: 'ok', description: '', parameters: noArgs, execute: () => 'ok' })
  const refusals: [string, Partial<AgentOptions>, RegExp][] = [
    ['duplicate tool names', { tools: [ok, { ...ok }] }, /tools\[1\]\.name.*duplicate/],
    [
      'a tool without execute',
      { tools: [{ name: 'x', description: '', parameters: noArgs } as unknown as ToolDefinition<Agent>] },
      /tools\[0\]\.execute/,
    ],
    [
      'a tool whose execute is not a function',
      { tools: [{ ...ok, execute: 'run' } as unknown as ToolDefinition<Agent>] },
      /tools\[0\]\.execute/,
    ],
    [
      'non-zod parameters (a plain JSON Schema object)',
      {
        tools: [
          {
            ...ok,
            parameters: { type: 'object', properties: {} },
          } as unknown as ToolDefinition<Agent>,
        ],
      },
      /tools\[0\]\.parameters/,
    ],
    ['a tool without a name', { tools: [{ ...ok, name: '' }] }, /tools\[0\]\.name/],
    ['tools that are not an array', { tools: ok as unknown as ToolDefinition<Agent>[] }, /tools/],
    ['maxParallelToolCalls 0', { maxParallelToolCalls: 0 }, /maxParallelToolCalls/],
    ['maxParallelToolCalls -1', { maxParallelToolCalls: -1 }, /maxParallelToolCalls/],
    ['maxParallelToolCalls 1.5', { maxParallelToolCalls: 1.5 }, /maxParallelToolCalls/],
  ]
  it.each(refusals)(
    'R2: createAgent refuses %s with an InvalidInputError naming the path',
    (_what, options, path) => {
      const model = scriptedModel([])
      let caught: unknown
      try {
        createAgent({ model, ...options })
      } catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(InvalidInputError)
      expect(caught).toBeInstanceOf(TypeError)
      expect((caught as InvalidInputError).message).toMatch(/^createAgent\(\): /)
      expect((caught as InvalidInputError).message).toMatch(path)
      expect((caught as InvalidInputError).issues.length).toBeGreaterThan(0)
      expect(model.requests).toHaveLength(0)
    },
  )

  it('R2: maxParallelToolCalls 1 is accepted', () => {
    expect(() =>
      createAgent({ model: scriptedModel([]), maxParallelToolCalls: 1, tools: [ok] }),
    ).not.toThrow()
  })
})

describe('what execute returns', () => {
  const cases: [string, () => unknown, Omit<ToolResultBlock, 'type' | 'toolCallId' | 'code'>][] = [
    ['a string', () => 'plain', { content: [{ type: 'text', text: 'plain' }] }],
    [
      'a ToolResult with string content',
      () => ({ content: 'as text' }),
      { content: [{ type: 'text', text: 'as text' }] },
    ],
    [
      'a ToolResult with content blocks',
      () => ({
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      }),
      {
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    ],
    [
      'a ToolResult with isError',
      () => ({ content: 'no such file', isError: true }),
      { content: [{ type: 'text', text: 'no such file' }], isError: true },
    ],
    [
      'a JSON object (as JSON text)',
      () => ({ n: 1, list: [true, null] }),
      { content: [{ type: 'text', text: '{"n":1,"list":[true,null]}' }] },
    ],
    ['a number (as JSON text)', () => 42, { content: [{ type: 'text', text: '42' }] }],
    ['a Promise of a string', () => Promise.resolve('later'), { content: [{ type: 'text', text: 'later' }] }],
    [
      'a Promise of a ToolResult',
      async () => {
        await delay(1)
        return { content: [{ type: 'text', text: 'awaited' }] }
      },
      { content: [{ type: 'text', text: 'awaited' }] },
    ],
    [
      'a Promise of a JSON value',
      () => Promise.resolve([1, 2]),
      { content: [{ type: 'text', text: '[1,2]' }] },
    ],
    ['an Observable of a string', () => of('observed'), { content: [{ type: 'text', text: 'observed' }] }],
    [
      'an asynchronous Observable of a ToolResult',
      () =>
        new Observable((subscriber) => {
          const timer = setTimeout(() => {
            subscriber.next({ content: 'ticked', isError: false })
            subscriber.complete()
          }, 1)
          return () => clearTimeout(timer)
        }),
      { content: [{ type: 'text', text: 'ticked' }] },
    ],
  ]
  it.each(cases)(
    'section 3: execute returning %s is recorded as its tool/result',
    async (_what, execute, expected) => {
      const tool = defineTool({ name: 'echo', description: '', parameters: noArgs, execute })
      const { agent, model, log, durable } = run([calls('echo'), 'done'], { tools: [tool] })
      agent.followup('go')
      await agent.whenIdle()
      const isError = (expected as { isError?: boolean }).isError === true
      expect(log).toEqual(
        toolTurn(['echo'], 'done', [isError ? 'tool/result(call-1,TOOL_ERROR)' : 'tool/result(call-1)']),
      )
      const [result] = resultsOf(durable)
      expect(result).toMatchObject({ type: 'tool-result', toolCallId: 'call-1', ...expected })
      if (!isError) expect(result?.isError).toBeFalsy()
      // The next request carries the result as a tool message.
      const toolMessage = model.requests[1]?.messages.find((m) => m.role === 'tool')
      expect(toolMessage?.content).toEqual([result])
    },
  )
})

describe('the batch runner', () => {
  it('R15, section 3: results are recorded in model order even when a later parallel tool finishes first', async () => {
    const slowDone = deferred()
    const fastDone = deferred()
    const bothStarted = deferred()
    const log: string[] = []
    let started = 0
    const tool = (name: string, done: { promise: Promise<void> }) =>
      defineTool({
        name,
        description: '',
        parameters: noArgs,
        parallel: true,
        execute: async () => {
          log.push(`start(${name})`)
          if (++started === 2) bothStarted.resolve()
          await done.promise
          log.push(`end(${name})`)
          return `${name}-result`
        },
      })
    const { agent, durable } = run(
      [calls('slow', 'fast'), 'done'],
      { tools: [tool('slow', slowDone), tool('fast', fastDone)] },
      log,
    )
    agent.followup('go')
    await bothStarted.promise
    fastDone.resolve()
    await delay(5)
    expect(log.at(-1)).toBe('end(fast)')
    expect(log).not.toContain('tool/call(slow)')
    expect(log).not.toContain('tool/call(fast)')
    slowDone.resolve()
    await agent.whenIdle()
    expect(log).toEqual([
      ...opening('go'),
      'assistant(slow())',
      'start(slow)',
      'start(fast)',
      'end(fast)',
      'end(slow)',
      'tool/call(slow)',
      'tool/result(call-1)',
      'tool/call(fast)',
      'tool/result(call-2)',
      'step/end(1.1)',
      'step/start(1.2)',
      ...answered('done', 1, 2),
      'idle',
    ])
    expect(resultsOf(durable).map((r) => textOf(r.content))).toEqual(['slow-result', 'fast-result'])
  })

  /** `n` calls of one tool that counts how many of its executions run at the same time. */
  const concurrency = async (n: number, parallel: boolean, maxParallelToolCalls?: number) => {
    let active = 0
    let max = 0
    let runs = 0
    const tool = defineTool({
      name: 'work',
      description: '',
      parameters: z.object({ i: z.number() }),
      parallel,
      execute: async ({ i }) => {
        runs++
        active++
        max = Math.max(max, active)
        await delay(3)
        active--
        return `r${i}`
      },
    })
    const toolCalls = Array.from({ length: n }, (_, i) => ({ name: 'work', arguments: `{"i":${i + 1}}` }))
    const options = maxParallelToolCalls === undefined ? {} : { maxParallelToolCalls }
    const { agent, durable, log } = run([{ toolCalls }, 'done'], { tools: [tool], ...options })
    agent.followup('go')
    await agent.whenIdle()
    expect(runs).toBe(n)
    expect(resultsOf(durable).map((r) => textOf(r.content))).toEqual(
      Array.from({ length: n }, (_, i) => `r${i + 1}`),
    )
    expect(log.at(-2)).toBe('settled(1,completed)')
    return max
  }

  it('section 3: parallel tools run concurrently up to the default bound of 4', async () => {
    expect(await concurrency(7, true)).toBe(4)
  })

  it('section 3: parallel tools run concurrently up to maxParallelToolCalls', async () => {
    expect(await concurrency(5, true, 2)).toBe(2)
    expect(await concurrency(3, true, 1)).toBe(1)
    expect(await concurrency(3, true, 8)).toBe(3)
  })

  it('section 3: tools that are not parallel-safe run one at a time', async () => {
    expect(await concurrency(4, false)).toBe(1)
    expect(await concurrency(4, false, 8)).toBe(1)
  })

  it('section 3: a non-parallel tool never runs beside another tool of its batch', async () => {
    const log: string[] = []
    let active = 0
    const overlaps: string[] = []
    const make = (name: string, parallel: boolean) =>
      defineTool({
        name,
        description: '',
        parameters: noArgs,
        parallel,
        execute: async () => {
          if (!parallel && active > 0) overlaps.push(`${name} started beside ${active}`)
          active++
          log.push(`start(${name})`)
          await delay(3)
          log.push(`end(${name})`)
          active--
          return name
        },
      })
    const tools = [make('p1', true), make('p2', true), make('solo', false), make('p3', true)]
    const { agent, durable } = run([calls('p1', 'p2', 'solo', 'p3'), 'done'], { tools }, log)
    agent.followup('go')
    await agent.whenIdle()
    expect(overlaps).toEqual([])
    const soloStart = log.indexOf('start(solo)')
    const soloEnd = log.indexOf('end(solo)')
    // Nothing else starts or ends while solo runs.
    expect(log.slice(soloStart + 1, soloEnd)).toEqual([])
    // p1 and p2 overlap.
    expect(log.indexOf('start(p2)')).toBeLessThan(log.indexOf('end(p1)'))
    expect(log.filter((l) => l.startsWith('tool/'))).toEqual([
      'tool/call(p1)',
      'tool/result(call-1)',
      'tool/call(p2)',
      'tool/result(call-2)',
      'tool/call(solo)',
      'tool/result(call-3)',
      'tool/call(p3)',
      'tool/result(call-4)',
    ])
    expect(resultsOf(durable).map((r) => textOf(r.content))).toEqual(['p1', 'p2', 'solo', 'p3'])
  })
})

describe('tool context', () => {
  it("R22: ctx.context(string) stages a user/message with source {kind:'tool', tool: name}, no id and no event", async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: '',
      parameters: noArgs,
      execute: (_args, ctx) => {
        ctx.context('note')
        return 'found'
      },
    })
    const { agent, model, log, live, durable } = run([calls('lookup'), 'done'], { tools: [lookup] })
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual([
      ...opening('go'),
      'assistant(lookup())',
      'tool/call(lookup)',
      'tool/result(call-1)',
      'user(note)',
      'step/end(1.1)',
      'step/start(1.2)',
      ...answered('done', 1, 2),
      'idle',
    ])
    const note = durable.find((e) => e.type === 'user/message' && textOf(e.data.content) === 'note')
    expect(note?.data).toEqual({
      content: [{ type: 'text', text: 'note' }],
      source: { kind: 'tool', tool: 'lookup' },
    })
    expect(live.filter((e) => e.type.startsWith('agent/inbox/'))).toHaveLength(2) // enqueue(go), dequeue(go)
    const messages = model.requests[1]?.messages ?? []
    expect(messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'note' }] })
  })

  it('R22: ctx.context(data) keeps the given source', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: '',
      parameters: noArgs,
      execute: (_args, ctx) => {
        ctx.context({
          content: [{ type: 'text', text: 'memo' }],
          source: { kind: 'plugin', plugin: 'memory' },
        })
        return 'found'
      },
    })
    const { agent, durable } = run([calls('lookup'), 'done'], { tools: [lookup] })
    agent.followup('go')
    await agent.whenIdle()
    const memo = durable.find((e) => e.type === 'user/message' && textOf(e.data.content) === 'memo')
    expect(memo?.data).toEqual({
      content: [{ type: 'text', text: 'memo' }],
      source: { kind: 'plugin', plugin: 'memory' },
    })
  })

  it('R21, R22: context staged during the batch (also after an await, also injects and steering) enters after all call/result pairs, in acceptance order', async () => {
    const first = defineTool({
      name: 'first',
      description: '',
      parameters: noArgs,
      parallel: true,
      execute: async (_args, ctx) => {
        ctx.context('note-1a')
        await delay(3)
        ctx.context('note-1b')
        agentOf(ctx).inject('injected')
        return 'one'
      },
    })
    const second = defineTool({
      name: 'second',
      description: '',
      parameters: noArgs,
      parallel: true,
      execute: (_args, ctx) => {
        ctx.context('note-2')
        agentOf(ctx).steer('steered')
        return 'two'
      },
    })
    const third = defineTool({
      name: 'third',
      description: '',
      parameters: noArgs,
      execute: (_args, ctx) => {
        ctx.context('note-3')
        return 'three'
      },
    })
    const { agent, model, log, durable } = run([calls('first', 'second', 'third'), 'done'], {
      tools: [first, second, third],
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual([
      ...opening('go'),
      'assistant(first())',
      'enqueue(steered,steering)',
      'tool/call(first)',
      'tool/result(call-1)',
      'tool/call(second)',
      'tool/result(call-2)',
      'tool/call(third)',
      'tool/result(call-3)',
      'user(note-1a)',
      'user(note-2)',
      'dequeue(steered)',
      'steering(steered)',
      'user(note-1b)',
      'user(injected)',
      'user(note-3)',
      'step/end(1.1)',
      'step/start(1.2)',
      ...answered('done', 1, 2),
      'idle',
    ])
    const sources = durable.flatMap((e) =>
      e.type === 'user/message' ? [[textOf(e.data.content), e.data.source]] : [],
    )
    expect(sources).toEqual([
      ['go', { kind: 'user' }],
      ['note-1a', { kind: 'tool', tool: 'first' }],
      ['note-2', { kind: 'tool', tool: 'second' }],
      ['note-1b', { kind: 'tool', tool: 'first' }],
      ['injected', { kind: 'user' }],
      ['note-3', { kind: 'tool', tool: 'third' }],
    ])
    const roles = (model.requests[1]?.messages ?? []).map((m: Message) => m.role)
    expect(roles).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'tool',
      'user',
      'user',
      'user',
      'user',
      'user',
      'user',
    ])
  })

  it('R22, R2: ctx.context with bad input throws InvalidInputError to the tool and stages nothing', async () => {
    const caught: unknown[] = []
    const bad: unknown[] = [
      { content: [], source: { kind: 'user' } },
      { content: [{ type: 'text', text: 1 }], source: { kind: 'user' } },
      { content: [{ type: 'text', text: 'x' }], source: {} },
      { content: [{ type: 'text', text: 10n }], source: { kind: 'user' } },
      42,
      undefined,
    ]
    const lookup = defineTool({
      name: 'lookup',
      description: '',
      parameters: noArgs,
      execute: (_args, ctx) => {
        for (const input of bad) {
          try {
            ctx.context(input as string)
          } catch (error) {
            caught.push(error)
          }
        }
        return 'still fine'
      },
    })
    const { agent, log, durable } = run([calls('lookup'), 'done'], { tools: [lookup] })
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual(toolTurn(['lookup']))
    expect(caught).toHaveLength(bad.length)
    for (const error of caught) expect(error).toBeInstanceOf(InvalidInputError)
    expect((caught[0] as Error).message).toMatch(/^ctx\.context\(\): /)
    expect(durable.filter((e) => e.type === 'user/message')).toHaveLength(1)
    expect(textOf(resultsOf(durable)[0]?.content ?? [])).toBe('still fine')
  })

  it('R22: a tool that lets the InvalidInputError of ctx.context escape gets a TOOL_ERROR result naming the problem', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: '',
      parameters: noArgs,
      execute: (_args, ctx) => {
        ctx.context({ content: [], source: { kind: 'user' } })
        return 'unreachable'
      },
    })
    const { agent, log, durable } = run([calls('lookup'), 'done'], { tools: [lookup] })
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual(toolTurn(['lookup'], 'done', ['tool/result(call-1,TOOL_ERROR)']))
    expect(textOf(resultsOf(durable)[0]?.content ?? [])).toMatch(/ctx\.context\(\).*content/)
  })
})

/** Hooks whose turnStopping counts its runs, read with `runs()`. */
const stoppingCounter = () => {
  let runs = 0
  const hooks = {
    turnStopping: () => {
      runs++
    },
  }
  return { hooks, runs: () => runs }
}

describe('R17: concluding tools', () => {
  it('R17: concludeTurn ends the turn after its step without turnStopping; steering drained in that step stays and reaches the next request', async () => {
    const stopping = stoppingCounter()
    const finish = defineTool({
      name: 'finish',
      description: '',
      parameters: noArgs,
      execute: async (_args, ctx) => {
        agentOf(ctx).steer('s')
        ctx.concludeTurn()
        await delay(1)
        return 'finished'
      },
    })
    const { agent, model, log, durable } = run([calls('finish'), 'second answer'], {
      tools: [finish],
      hooks: stopping.hooks,
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(stopping.runs()).toBe(0)
    expect(model.requests).toHaveLength(1)
    expect(log).toEqual([
      ...opening('go'),
      'assistant(finish())',
      'enqueue(s,steering)',
      'tool/call(finish)',
      'tool/result(call-1)',
      'dequeue(s)',
      'steering(s)',
      'step/end(1.1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
    const steering = durable.find((e) => e.type === 'steering/message')
    expect(steering?.data).toMatchObject({ turn: 1, content: [{ type: 'text', text: 's' }] })
    agent.followup('next')
    await agent.whenIdle()
    expect(stopping.runs()).toBe(1)
    const messages = model.requests[1]?.messages ?? []
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'user'])
    expect(messages.slice(3)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 's' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ])
  })

  it('R17: one concluding call among several ends the turn after the whole batch', async () => {
    const stopping = stoppingCounter()
    const plain = defineTool({ name: 'plain', description: '', parameters: noArgs, execute: () => 'p' })
    const finish = defineTool({
      name: 'finish',
      description: '',
      parameters: noArgs,
      execute: (_args, ctx) => {
        ctx.concludeTurn()
        return 'f'
      },
    })
    const { agent, model, log } = run([calls('finish', 'plain')], {
      tools: [plain, finish],
      hooks: stopping.hooks,
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(stopping.runs()).toBe(0)
    expect(model.requests).toHaveLength(1)
    expect(log.slice(6)).toEqual([
      'assistant(finish())',
      'tool/call(finish)',
      'tool/result(call-1)',
      'tool/call(plain)',
      'tool/result(call-2)',
      'step/end(1.1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
  })
})

describe('R18: max-tokens', () => {
  it('R18: tool calls of a max-tokens finish are not run; each gets NOT_RUN_MAX_TOKENS; turn/end max-tokens, settled completed', async () => {
    let executed = 0
    const stopping = stoppingCounter()
    const echo = defineTool({
      name: 'echo',
      description: '',
      parameters: noArgs,
      execute: () => {
        executed++
        return 'ran'
      },
    })
    const { agent, model, log, live, durable } = run(
      [{ text: 'cut', toolCalls: [{ name: 'echo' }, { name: 'echo' }], finish: 'max-tokens' }],
      {
        tools: [echo],
        hooks: stopping.hooks,
      },
    )
    agent.followup('go')
    await agent.whenIdle()
    expect(executed).toBe(0)
    expect(model.requests).toHaveLength(1) // the unrun calls do not count as tool calls (R16)
    expect(stopping.runs()).toBe(1)
    expect(log).toEqual([
      ...opening('go'),
      'assistant(cut)',
      'tool/call(echo)',
      'tool/result(call-1,NOT_RUN_MAX_TOKENS)',
      'tool/call(echo)',
      'tool/result(call-2,NOT_RUN_MAX_TOKENS)',
      'step/end(1.1)',
      'turn/end(1,max-tokens)',
      'settled(1,completed)',
      'idle',
    ])
    for (const result of resultsOf(durable)) {
      expect(result.isError).toBe(true)
      expect(result.code).toBe('NOT_RUN_MAX_TOKENS')
    }
    const end = durable.find((e) => e.type === 'turn/end')
    expect(end?.data.reason).toEqual({ kind: 'max-tokens' })
    const settled = live.find((e) => e.type === 'agent/settled')
    expect(settled).toMatchObject({ turn: 1, reason: { kind: 'completed' } })
  })

  it('R18: the end reason stays max-tokens when a later step of the turn finishes with stop', async () => {
    let agentRef: Agent | undefined
    const maxTokens: ModelEvent[] = [
      { type: 'text', text: 'trunc' },
      { type: 'tool-call', id: 'c1', name: 'echo', arguments: '{}' },
      { type: 'finish', reason: 'max-tokens' },
    ]
    const echo = defineTool({ name: 'echo', description: '', parameters: noArgs, execute: () => 'ran' })
    const { agent, model, log, live, durable } = run(
      [
        () => {
          agentRef?.steer('go on')
          return maxTokens
        },
        'complete answer',
      ],
      { tools: [echo] },
    )
    agentRef = agent
    agent.followup('go')
    await agent.whenIdle()
    expect(model.requests).toHaveLength(2)
    expect(log).toEqual([
      ...opening('go'),
      'enqueue(go on,steering)',
      'assistant(trunc)',
      'tool/call(echo)',
      'tool/result(c1,NOT_RUN_MAX_TOKENS)',
      'dequeue(go on)',
      'steering(go on)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(complete answer)',
      'step/end(1.2)',
      'turn/end(1,max-tokens)',
      'settled(1,completed)',
      'idle',
    ])
    expect(durable.find((e) => e.type === 'turn/end')?.data.reason).toEqual({ kind: 'max-tokens' })
    expect(live.find((e) => e.type === 'agent/settled')).toMatchObject({ reason: { kind: 'completed' } })
  })

  it('R18: a max-tokens step after a tool step ends the turn max-tokens', async () => {
    const echo = defineTool({ name: 'echo', description: '', parameters: noArgs, execute: () => 'ran' })
    const { agent, log, durable } = run([calls('echo'), { text: 'long', finish: 'max-tokens' }], {
      tools: [echo],
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(log.slice(-6)).toEqual([
      'step/start(1.2)',
      'assistant(long)',
      'step/end(1.2)',
      'turn/end(1,max-tokens)',
      'settled(1,completed)',
      'idle',
    ])
    expect(resultsOf(durable)[0]?.isError).toBeFalsy()
  })
})
