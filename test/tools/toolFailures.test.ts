/**
 * Tool call failures through the public API: bad arguments, unknown tools, tools that throw or
 * return non-JSON (R21b), and cancellation inside a running batch (R25, V1, V7).
 */
import { Observable, throwError } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../../src/index.js'
import type { ScriptedReply } from '../../src/testing.js'
import { deferred, delay, run, textOf } from '../support/agents.js'
import { aborted, answered, oneTurn, opening } from '../support/labels.js'
import { agentOf, noArgs, resultsOf, toolTurn } from '../support/tools.js'

describe('R21b: tool call errors are results, and the turn goes on', () => {
  const weather = (execute: (args: { city: string }) => unknown = ({ city }) => `sunny in ${city}`) => {
    let runs = 0
    const tool = defineTool({
      name: 'weather',
      description: 'Weather by city.',
      parameters: z.object({ city: z.string(), days: z.number().int().optional() }),
      execute: (args) => {
        runs++
        return execute(args)
      },
    })
    return { tool, runs: () => runs }
  }

  /**
   * Runs one call and returns what the model was told; checks the whole sequence and that the next step ran.
   */
  const oneCall = async (
    call: { name: string; arguments: string },
    code: string,
    execute?: (args: { city: string }) => unknown,
  ) => {
    const { tool, runs } = weather(execute)
    const { agent, model, log, live, durable } = run([{ toolCalls: [call] }, 'done'], { tools: [tool] })
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual(toolTurn([call.name], 'done', [`tool/result(call-1,${code})`]))
    expect(live.filter((e) => e.type === 'agent/error')).toEqual([])
    const [result] = resultsOf(durable)
    expect(result).toMatchObject({ type: 'tool-result', toolCallId: 'call-1', isError: true, code })
    // The next step's request shows the model the error result.
    expect(model.requests).toHaveLength(2)
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', content: [result] })
    return { text: textOf(result?.content ?? []), runs: runs() }
  }

  /** Calls refused before `execute`: the call, the code of its result, and what its text must name. */
  const refused: [string, { name: string; arguments: string }, string, RegExp | undefined][] = [
    [
      'R21b: arguments that are not JSON give INVALID_ARGUMENTS whose text says they are not JSON; execute never runs',
      { name: 'weather', arguments: '{city: Paris' },
      'INVALID_ARGUMENTS',
      /JSON/,
    ],
    [
      'R21b: empty arguments are not JSON either',
      { name: 'weather', arguments: '' },
      'INVALID_ARGUMENTS',
      /JSON/,
    ],
    [
      'R21b: arguments missing a required field give INVALID_ARGUMENTS naming the field',
      { name: 'weather', arguments: '{"town":"Paris"}' },
      'INVALID_ARGUMENTS',
      /city/,
    ],
    [
      'R21b: a field of the wrong type gives INVALID_ARGUMENTS naming the field',
      { name: 'weather', arguments: '{"city":"Paris","days":1.5}' },
      'INVALID_ARGUMENTS',
      /days/,
    ],
    [
      'R21b: JSON that is not an object gives INVALID_ARGUMENTS',
      { name: 'weather', arguments: '[1,2]' },
      'INVALID_ARGUMENTS',
      undefined,
    ],
    [
      'R21b: an unknown tool name gives UNKNOWN_TOOL whose text names the tool',
      { name: 'teleport', arguments: '{}' },
      'UNKNOWN_TOOL',
      /teleport/,
    ],
  ]
  it.each(refused)('%s', async (_name, call, code, named) => {
    const { text, runs } = await oneCall(call, code)
    if (named) expect(text).toMatch(named)
    expect(runs).toBe(0)
  })

  const throwers: [string, () => unknown][] = [
    [
      'throws synchronously',
      () => {
        throw new Error('station offline')
      },
    ],
    ['rejects a Promise', () => Promise.reject(new Error('station offline'))],
    [
      'rejects from an async function after an await',
      async () => {
        await delay(1)
        throw new Error('station offline')
      },
    ],
    ['errors an Observable', () => throwError(() => new Error('station offline'))],
    [
      'errors an Observable asynchronously',
      () =>
        new Observable((subscriber) => {
          const timer = setTimeout(() => subscriber.error(new Error('station offline')), 1)
          return () => clearTimeout(timer)
        }),
    ],
    [
      'throws a string',
      () => {
        throw 'station offline'
      },
    ],
  ]
  it.each(throwers)('R21b, R23: a tool that %s gives TOOL_ERROR with its message', async (_what, execute) => {
    const { text, runs } = await oneCall(
      { name: 'weather', arguments: '{"city":"Paris"}' },
      'TOOL_ERROR',
      execute,
    )
    expect(text).toMatch(/station offline/)
    expect(runs).toBe(1)
  })

  const nonJson: [string, () => unknown][] = [
    ['a function', () => () => 'hi'],
    ['a BigInt', () => 10n],
    ['a Promise of a BigInt', () => Promise.resolve(10n)],
    ['an object holding a BigInt', () => ({ big: 10n })],
    ['an object holding a function', () => ({ fn: () => 1 })],
    ['a Symbol', () => Symbol('s')],
    ['NaN', () => Number.NaN],
    ['a Date', () => new Date(0)],
    ['a Map', () => new Map()],
    [
      'a cycle',
      () => {
        const cycle: Record<string, unknown> = {}
        cycle.self = cycle
        return cycle
      },
    ],
    ['a ToolResult whose content holds a BigInt', () => ({ content: [{ type: 'text', text: 1n }] })],
  ]
  it.each(nonJson)(
    'R21b, section 3: a tool returning %s gets an INVALID_RESULT error result',
    async (_what, execute) => {
      const { text, runs } = await oneCall(
        { name: 'weather', arguments: '{"city":"Paris"}' },
        'INVALID_RESULT',
        execute,
      )
      expect(text).toMatch(/JSON/)
      expect(runs).toBe(1)
    },
  )

  it('R21b: failures of some calls do not affect the other calls of the batch', async () => {
    const { tool } = weather(({ city }) => {
      if (city === 'Atlantis') throw new Error('no such city')
      return `sunny in ${city}`
    })
    const { agent, model, log, durable } = run(
      [
        {
          toolCalls: [
            { name: 'weather', arguments: '{"city":"Paris"}' },
            { name: 'weather', arguments: 'nope' },
            { name: 'radar', arguments: '{}' },
            { name: 'weather', arguments: '{"city":"Atlantis"}' },
            { name: 'weather', arguments: '{"city":"Rome"}' },
          ],
        },
        'done',
      ],
      { tools: [tool] },
    )
    agent.followup('go')
    await agent.whenIdle()
    expect(log.filter((l) => l.startsWith('tool/result'))).toEqual([
      'tool/result(call-1)',
      'tool/result(call-2,INVALID_ARGUMENTS)',
      'tool/result(call-3,UNKNOWN_TOOL)',
      'tool/result(call-4,TOOL_ERROR)',
      'tool/result(call-5)',
    ])
    expect(resultsOf(durable).map((r) => textOf(r.content))[4]).toBe('sunny in Rome')
    expect(log.slice(-4)).toEqual(['step/end(1.2)', 'turn/end(1,completed)', 'settled(1,completed)', 'idle'])
    expect(model.requests[1]?.messages.filter((m) => m.role === 'tool')).toHaveLength(5)
  })
})

describe('R25: cancel inside a running batch', () => {
  /**
   * Two parallel tools that are both running when the test cancels, then one that never started:
   * `hang` never settles (and staged context), `observed` emits from its abort listener, and `later`
   * (not parallel) waits behind them.
   */
  const batch = (log: string[]) => {
    const running = deferred()
    const signals: AbortSignal[] = []
    let laterRuns = 0
    let started = 0
    const began = (name: string, signal: AbortSignal) => {
      log.push(`exec(${name})`)
      signals.push(signal)
      if (++started === 2) running.resolve()
    }
    const tools = [
      defineTool({
        name: 'hang',
        description: '',
        parameters: noArgs,
        parallel: true,
        execute: (_args, ctx) => {
          began('hang', ctx.signal)
          ctx.context('staged by hang')
          return new Promise(() => {})
        },
      }),
      defineTool({
        name: 'observed',
        description: '',
        parameters: noArgs,
        parallel: true,
        execute: (_args, ctx) => {
          began('observed', ctx.signal)
          return new Observable<string>((subscriber) => {
            ctx.signal.addEventListener('abort', () => {
              subscriber.next('observed-partial')
              subscriber.complete()
            })
          })
        },
      }),
      defineTool({
        name: 'later',
        description: '',
        parameters: noArgs,
        execute: () => {
          laterRuns++
          return 'never'
        },
      }),
    ]
    const script: ScriptedReply[] = [
      { toolCalls: [{ name: 'hang' }, { name: 'observed' }, { name: 'later' }] },
      'second turn',
    ]
    return { tools, script, running: running.promise, signals, laterRuns: () => laterRuns }
  }

  const batchHead = [...opening('go'), 'assistant(hang())', 'exec(hang)', 'exec(observed)']
  const abortedBatch = [
    'tool/call(hang)',
    'tool/result(call-1,ABORTED)',
    'tool/call(observed)',
    'tool/result(call-2)',
    'tool/call(later)',
    'tool/result(call-3,ABORTED_BEFORE_DISPATCH)',
    'step/end(1.1)',
    'turn/end(1,aborted)',
  ]

  it('R25, V1: running tools see ctx.signal abort; a tool that never settles is ABORTED, a value emitted from an abort listener is the result, an unstarted call is ABORTED_BEFORE_DISPATCH; staged tool context is appended after turn/end', async () => {
    const log: string[] = []
    const { tools, script, running, signals, laterRuns } = batch(log)
    const { agent, model, live, durable } = run(script, { tools }, log)
    agent.followup('go')
    await running
    expect(signals.every((s) => !s.aborted)).toBe(true)
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(log).toEqual([
      ...batchHead,
      'cancel(user)',
      ...abortedBatch,
      'user(staged by hang)',
      'settled(1,aborted)',
      'idle',
    ])
    expect(signals).toHaveLength(2)
    for (const signal of signals) {
      expect(signal.aborted).toBe(true)
      expect(signal.reason).toEqual({ kind: 'user' })
    }
    expect(laterRuns()).toBe(0)
    expect(model.requests).toHaveLength(1)
    const results = resultsOf(durable)
    expect(results.map((r) => [r.isError === true, r.code ?? null, textOf(r.content)])).toEqual([
      [true, 'ABORTED', expect.any(String)],
      [false, null, 'observed-partial'],
      [true, 'ABORTED_BEFORE_DISPATCH', expect.any(String)],
    ])
    const note = durable.find((e) => e.type === 'user/message' && textOf(e.data.content) === 'staged by hang')
    expect(note?.data).toEqual({
      content: [{ type: 'text', text: 'staged by hang' }],
      source: { kind: 'tool', tool: 'hang' },
    })
    expect(live.find((e) => e.type === 'agent/settled')).toMatchObject({
      turn: 1,
      reason: { kind: 'aborted' },
    })
  })

  it('R25, V1, R26: with keepInbox and no turn following, the staged tool context is appended before idle', async () => {
    const log: string[] = []
    const { tools, script, running } = batch(log)
    const { agent, model } = run(script, { tools }, log)
    agent.followup('go')
    await running
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(log).toEqual([
      ...batchHead,
      'cancel(user)',
      ...abortedBatch,
      'settled(1,aborted)',
      'user(staged by hang)',
      'idle',
    ])
    agent.followup('next')
    await agent.whenIdle()
    expect(log.slice(batchHead.length + 1 + abortedBatch.length + 3)).toEqual([
      'enqueue(next,queued)',
      'running',
      ...oneTurn('next', 'second turn', 2).slice(1),
    ])
    const messages = model.requests[1]?.messages ?? []
    expect(messages.slice(-2)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'staged by hang' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ])
  })

  it('R25, V1, R26: with keepInbox a followup queued during the batch runs right after, with the staged context as its inherited prefix and no idle between', async () => {
    const log: string[] = []
    const { tools, script, running } = batch(log)
    const { agent } = run(script, { tools }, log)
    agent.followup('go')
    await running
    agent.followup('q')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(log).toEqual([
      ...batchHead,
      'enqueue(q,queued)',
      'cancel(user)',
      ...abortedBatch,
      'settled(1,aborted)',
      'dequeue(q)',
      'turn/start(2)',
      'user(staged by hang)',
      'user(q)',
      'step/start(2.1)',
      ...answered('second turn', 2),
      'idle',
    ])
  })

  it('R25, V7: steering sent during the batch is discarded by a cancel without keepInbox (never lost silently), and never reaches a later turn', async () => {
    const log: string[] = []
    const { tools, script, running } = batch(log)
    const { agent, model, live } = run(script, { tools }, log)
    agent.followup('go')
    await running
    const steerId = agent.steer('steer during batch')
    const queuedId = agent.followup('q')
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(log).toEqual([
      ...batchHead,
      'enqueue(steer during batch,steering)',
      'enqueue(q,queued)',
      'cancel(user)',
      'discard(q,steer during batch)',
      ...abortedBatch,
      'user(staged by hang)',
      'settled(1,aborted)',
      'idle',
    ])
    const discard = live.find((e) => e.type === 'agent/inbox/discard')
    expect(discard?.type === 'agent/inbox/discard' && discard.messages.map((m) => m.id)).toEqual([
      queuedId,
      steerId,
    ])
    agent.followup('next')
    await agent.whenIdle()
    const texts = (model.requests[1]?.messages ?? []).map((m) => textOf(m.content))
    expect(texts).not.toContain('steer during batch')
    expect(texts.at(-1)).toBe('next')
  })

  it('R25, V7, R26: steering sent during the batch is drained into the next turn after a cancel with keepInbox', async () => {
    const log: string[] = []
    const { tools, script, running } = batch(log)
    const { agent, model, durable } = run(script, { tools }, log)
    agent.followup('go')
    await running
    const steerId = agent.steer('steer during batch')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(log).toEqual([
      ...batchHead,
      'enqueue(steer during batch,steering)',
      'cancel(user)',
      ...abortedBatch,
      'settled(1,aborted)',
      'idle',
    ])
    agent.followup('next')
    await agent.whenIdle()
    expect(log.slice(log.indexOf('enqueue(next,queued)'))).toEqual([
      'enqueue(next,queued)',
      'running',
      'dequeue(next)',
      'turn/start(2)',
      'user(staged by hang)',
      'dequeue(steer during batch)',
      'steering(steer during batch)',
      'user(next)',
      'step/start(2.1)',
      ...answered('second turn', 2),
      'idle',
    ])
    const steering = durable.find((e) => e.type === 'steering/message')
    expect(steering?.data).toMatchObject({ turn: 2, id: steerId })
    const texts = (model.requests[1]?.messages ?? []).map((m) => textOf(m.content))
    expect(texts.slice(-3)).toEqual(['staged by hang', 'steer during batch', 'next'])
  })

  /** A tool whose Promise resolves from its abort listener; `cancelWhen` decides when the test cancels. */
  const promisedAfterAbort = async (cancelWhen: 'microtask' | 'timer') => {
    const log: string[] = []
    const started = deferred()
    const promised = defineTool({
      name: 'promised',
      description: '',
      parameters: noArgs,
      execute: (_args, ctx) => {
        started.resolve()
        return new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => resolve('promised-partial'))
        })
      },
    })
    const { agent, durable } = run([{ toolCalls: [{ name: 'promised' }] }], { tools: [promised] }, log)
    agent.followup('go')
    await started.promise
    if (cancelWhen === 'timer') await delay(5)
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(log).toEqual([
      ...opening('go'),
      'assistant(promised())',
      'cancel(user)',
      'tool/call(promised)',
      'tool/result(call-1)',
      ...aborted(),
      'idle',
    ])
    expect(textOf(resultsOf(durable)[0]?.content ?? [])).toBe('promised-partial')
  }

  it('R25: a tool whose Promise is resolved by its abort listener has that value recorded (cancel from a timer)', async () => {
    await promisedAfterAbort('timer')
  })

  it('R25: a tool whose Promise is resolved by its abort listener has that value recorded (cancel right after the tool started, from a microtask)', async () => {
    await promisedAfterAbort('microtask')
  })

  it('R25: a tool that errors from its abort listener (as fetch does) has delivered no value: its result is ABORTED', async () => {
    const log: string[] = []
    const started = deferred()
    const fetchLike = defineTool({
      name: 'fetchLike',
      description: '',
      parameters: noArgs,
      execute: (_args, ctx) =>
        new Observable<string>((subscriber) => {
          started.resolve()
          ctx.signal.addEventListener('abort', () => subscriber.error(ctx.signal.reason))
        }),
    })
    const { agent, durable } = run([{ toolCalls: [{ name: 'fetchLike' }] }], { tools: [fetchLike] }, log)
    agent.followup('go')
    await started.promise
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(log.slice(-7)).toEqual([
      'cancel(user)',
      'tool/call(fetchLike)',
      'tool/result(call-1,ABORTED)',
      ...aborted(),
      'idle',
    ])
    expect(resultsOf(durable)[0]).toMatchObject({ isError: true, code: 'ABORTED' })
  })

  it('R25: a cancel from inside a tool aborts its own batch; its value is kept if delivered by the time the loop reacts', async () => {
    const log: string[] = []
    const quitter = defineTool({
      name: 'quitter',
      description: '',
      parameters: noArgs,
      execute: (_args, ctx) =>
        new Observable<string>((subscriber) => {
          ctx.signal.addEventListener('abort', () => {
            subscriber.next('quit')
            subscriber.complete()
          })
          agentOf(ctx).cancel({ kind: 'parent' })
        }),
    })
    const next = defineTool({ name: 'next', description: '', parameters: noArgs, execute: () => 'never' })
    const { agent, model, live } = run(
      [{ toolCalls: [{ name: 'quitter' }, { name: 'next' }] }],
      { tools: [quitter, next] },
      log,
    )
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual([
      ...opening('go'),
      'assistant(quitter())',
      'cancel(parent)',
      'tool/call(quitter)',
      'tool/result(call-1)',
      'tool/call(next)',
      'tool/result(call-2,ABORTED_BEFORE_DISPATCH)',
      ...aborted(),
      'idle',
    ])
    expect(model.requests).toHaveLength(1)
    expect(live.find((e) => e.type === 'agent/cancel-requested')).toMatchObject({
      cause: { kind: 'parent' },
    })
  })
})
