/**
 * Model request failures and retry through the public API (R23, R24), the model stream contract
 * (events after `finish` are ignored, malformed events fail the request) and usage recording.
 */
import { concat, from, Observable, Subject, throwError } from 'rxjs'
import { describe, expect, it } from 'vitest'
import {
  type Agent,
  AgentBusyError,
  type AgentHooks,
  MalformedModelEventError,
  type ModelEvent,
  type ModelRequest,
} from '../../src/index.js'
import type { ScriptedReply } from '../../src/testing.js'
import { delay, run, textOf } from '../support/agents.js'
import { answered, oneTurn, opening } from '../support/labels.js'

/** A synchronous stream of model events. */
const events = (...list: ModelEvent[]) => from(list)

type Seen = { turn: number; step: number; error: unknown; window: boolean; status: string }

/**
 * `run` with a requestError hook that notes itself in the log and what it saw in `seen`; `then`
 * runs inside it.
 */
const runSpied = (
  script: readonly ScriptedReply[],
  then: (agent: Agent, calls: number) => void = () => {},
) => {
  const log: string[] = []
  const seen: Seen[] = []
  const hooks: AgentHooks<Agent> = {
    requestError: ({ agent, turn, step, error }) => {
      log.push(`hook(requestError,${turn}.${step})`)
      seen.push({ turn, step, error, window: agent.acceptsNextStep, status: agent.status })
      then(agent, seen.length)
    },
  }
  return { ...run(script, { hooks }, log), seen }
}

/** The sequence of an idle followup `go` whose first request fails (R24). */
const failedTurn = [
  ...opening('go'),
  'step/end(1.1)',
  'hook(requestError,1.1)',
  'error(1.1)',
  'turn/end(1,error)',
]

const boom = new Error('model unavailable')

/** `failedTurn`, then the retry turn it asked for, answered 'recovered' (R24). */
const failedThenRecovered = [
  ...failedTurn,
  'turn/start(2,retry)',
  'step/start(2.1)',
  ...answered('recovered', 2),
  'idle',
]

describe('R24: a failed request', () => {
  const failures: [string, () => ScriptedReply, unknown][] = [
    ['errors before its first event', () => ({ error: boom }), boom],
    ['is a rejected Promise', () => () => Promise.reject(boom), boom],
    [
      'is an adapter that throws synchronously',
      () => () => {
        throw boom
      },
      boom,
    ],
    [
      'errors asynchronously before its first event',
      () =>
        new Observable<ModelEvent>((subscriber) => {
          const timer = setTimeout(() => subscriber.error(boom), 2)
          return () => clearTimeout(timer)
        }),
      boom,
    ],
    [
      'errors mid-stream, after some text',
      () =>
        concat(
          events({ type: 'text', text: 'Partial ' }, { type: 'text', text: 'answer' }),
          throwError(() => boom),
        ),
      boom,
    ],
    [
      'errors mid-stream, after a tool call',
      () =>
        concat(
          events({ type: 'tool-call', id: 'c1', name: 'x', arguments: '{}' }),
          throwError(() => boom),
        ),
      boom,
    ],
  ]
  it.each(failures)(
    'R24, R23: a request that %s closes the step, runs requestError with the window open, then agent/error, turn/end {error}, settled {error}',
    async (_what, reply, error) => {
      const { agent, model, live, durable, log, seen } = runSpied([reply(), 'after'])
      agent.followup('go')
      await agent.whenIdle()
      expect(log).toEqual([...failedTurn, 'settled(1,error)', 'idle'])
      expect(seen).toEqual([{ turn: 1, step: 1, error, window: true, status: 'running' }])
      expect(live.find((e) => e.type === 'agent/error')).toEqual({
        type: 'agent/error',
        agentId: agent.id,
        turn: 1,
        step: 1,
        error,
      })
      expect(durable.find((e) => e.type === 'turn/end')?.data).toEqual({
        turn: 1,
        reason: { kind: 'error', step: 1, message: 'model unavailable' },
      })
      const settled = live.find((e) => e.type === 'agent/settled')
      expect(settled).toMatchObject({ turn: 1, reason: { kind: 'error' } })
      expect(
        settled?.type === 'agent/settled' && settled.reason.kind === 'error' && settled.reason.error,
      ).toBe(error)
      // Nothing of the failed step is recorded as an answer or tool call.
      expect(durable.filter((e) => e.type === 'assistant/message' || e.type === 'tool/call')).toEqual([])
      expect(agent.acceptsNextStep).toBe(false)
      // The agent keeps serving.
      agent.followup('again')
      await agent.whenIdle()
      expect(log.slice(-5)).toEqual([...answered('after', 2), 'idle'])
      expect(model.requests[1]?.messages.map((m) => textOf(m.content))).toEqual(['go', 'again'])
    },
  )

  it('R24: text streamed before the failure was shown live as deltas but is not recorded', async () => {
    const { agent, live, durable } = run([
      concat(
        events({ type: 'text', text: 'Partial ' }),
        throwError(() => boom),
      ),
    ])
    agent.followup('go')
    await agent.whenIdle()
    expect(
      live
        .filter((e) => e.type === 'agent/stream/delta')
        .map((e) => e.type === 'agent/stream/delta' && e.text),
    ).toEqual(['Partial '])
    expect(durable.filter((e) => e.type === 'assistant/message')).toEqual([])
    expect(agent.session.messages().map((m) => textOf(m.content))).toEqual(['go'])
  })

  const malformed: [string, unknown[]][] = [
    ['a text event without text', [{ type: 'text' }]],
    ['an event of an unknown type', [{ type: 'image', url: 'x' }]],
    [
      'a text event whose text is a number',
      [
        { type: 'text', text: 'ok ' },
        { type: 'text', text: 5 },
      ],
    ],
    ['a tool-call without arguments', [{ type: 'tool-call', id: 'c1', name: 'x' }]],
    [
      'a finish with an unknown reason',
      [
        { type: 'text', text: 'ok' },
        { type: 'finish', reason: 'done' },
      ],
    ],
    ['a finish with malformed usage', [{ type: 'finish', reason: 'stop', usage: { inputTokens: 'many' } }]],
    ['null', [null]],
    ['a string', ['hello']],
  ]
  it.each(malformed)(
    'R24, section 3: a malformed model event (%s) is a request failure',
    async (_what, events) => {
      const { agent, durable, log, seen } = runSpied([from(events as ModelEvent[])])
      agent.followup('go')
      await agent.whenIdle()
      expect(log).toEqual([...failedTurn, 'settled(1,error)', 'idle'])
      expect(seen).toHaveLength(1)
      expect(seen[0]?.error).toBeInstanceOf(MalformedModelEventError)
      expect(seen[0]?.window).toBe(true)
      const end = durable.find((e) => e.type === 'turn/end')
      expect(end?.data.reason).toMatchObject({
        kind: 'error',
        step: 1,
        message: expect.stringMatching(/malformed/i),
      })
      expect(durable.filter((e) => e.type === 'assistant/message')).toEqual([])
    },
  )

  it('R24: a request failure in a later step closes that step; earlier steps stay recorded', async () => {
    const { agent, log, seen } = runSpied([{ toolCalls: [{ name: 'missing' }] }, { error: boom }])
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual([
      ...opening('go'),
      'assistant(missing())',
      'tool/call(missing)',
      'tool/result(call-1,UNKNOWN_TOOL)',
      'step/end(1.1)',
      'step/start(1.2)',
      'step/end(1.2)',
      'hook(requestError,1.2)',
      'error(1.2)',
      'turn/end(1,error)',
      'settled(1,error)',
      'idle',
    ])
    expect(seen.map((s) => [s.turn, s.step])).toEqual([[1, 2]])
  })

  it('R24, R20: input sent inside requestError obeys the open window (steer is steering, inject is staged context) and is kept for the next turn', async () => {
    const { agent, model, log } = runSpied([{ error: boom }, 'fine'], (agent) => {
      agent.steer('fix it')
      agent.inject('ctx')
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual([
      ...failedTurn.slice(0, 8),
      'enqueue(fix it,steering)',
      'error(1.1)',
      'turn/end(1,error)',
      'settled(1,error)',
      'idle',
    ])
    agent.followup('next')
    await agent.whenIdle()
    expect(log.slice(log.indexOf('enqueue(next,queued)'), log.indexOf('step/start(2.1)') + 1)).toEqual([
      'enqueue(next,queued)',
      'running',
      'dequeue(next)',
      'turn/start(2)',
      'dequeue(fix it)',
      'steering(fix it)',
      'user(ctx)',
      'user(next)',
      'step/start(2.1)',
    ])
    expect(model.requests[1]?.messages.map((m) => textOf(m.content))).toEqual(['go', 'fix it', 'ctx', 'next'])
  })
})

/** Calls `retry()` from a subscriber of turn `turn`'s `step/end`s; returns what those calls threw. */
const retryOnStepEnd = (agent: Agent, turn: number): unknown[] => {
  const thrown: unknown[] = []
  agent.transcript$.subscribe((event) => {
    if (event.type !== 'step/end' || event.data.turn !== turn) return
    try {
      agent.retry()
    } catch (error) {
      thrown.push(error)
    }
  })
  return thrown
}

describe('R24: retry', () => {
  it('R24: retry() inside requestError opens one retry turn right after the failed turn, with no settled or idle between', async () => {
    const { agent, model, live, durable, log } = runSpied([{ error: boom }, 'recovered'], (agent) =>
      agent.retry(),
    )
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual(failedThenRecovered)
    expect(durable.find((e) => e.type === 'turn/start' && e.data.turn === 2)?.data).toEqual({
      turn: 2,
      trigger: { kind: 'retry' },
    })
    expect(live.filter((e) => e.type === 'agent/settled')).toHaveLength(1)
    expect(model.requests.map((r) => [r.turn, r.step])).toEqual([
      [1, 1],
      [2, 1],
    ])
    // The retry turn repeats the conversation: the prompt is already in the transcript.
    expect(model.requests[1]?.messages.map((m) => textOf(m.content))).toEqual(['go'])
  })

  it('R24: repeated retry() calls inside requestError coalesce to one retry turn', async () => {
    const { agent, model, log } = runSpied([{ error: boom }, 'recovered', 'unused'], (agent) => {
      agent.retry()
      agent.retry()
      agent.retry()
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(log.filter((l) => l.startsWith('turn/start'))).toEqual(['turn/start(1)', 'turn/start(2,retry)'])
    expect(model.requests).toHaveLength(2)
    expect(log.slice(-3)).toEqual(['turn/end(2,completed)', 'settled(2,completed)', 'idle'])
  })

  it('R24: retry() from an asynchronous requestError hook (after an await) still opens the retry turn', async () => {
    const log: string[] = []
    const { agent } = run(
      [{ error: boom }, 'recovered'],
      {
        hooks: {
          requestError: async ({ agent: a }) => {
            await delay(2)
            log.push('hook(retry)')
            a.retry()
          },
        },
      },
      log,
    )
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual([
      ...failedTurn.slice(0, 7),
      'hook(retry)',
      'error(1.1)',
      'turn/end(1,error)',
      'turn/start(2,retry)',
      'step/start(2.1)',
      ...answered('recovered', 2),
      'idle',
    ])
  })

  it('R24: a retry turn that fails again settles with its error when the hook does not retry again; one settled for the chain', async () => {
    const second = new Error('still down')
    const { agent, live, log, seen } = runSpied([{ error: boom }, { error: second }], (agent, calls) => {
      if (calls === 1) agent.retry()
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual([
      ...failedTurn,
      'turn/start(2,retry)',
      'step/start(2.1)',
      'step/end(2.1)',
      'hook(requestError,2.1)',
      'error(2.1)',
      'turn/end(2,error)',
      'settled(2,error)',
      'idle',
    ])
    expect(seen.map((s) => s.error)).toEqual([boom, second])
    const settled = live.filter((e) => e.type === 'agent/settled')
    expect(settled).toHaveLength(1)
    expect(settled[0]?.type === 'agent/settled' && settled[0].reason).toEqual({
      kind: 'error',
      error: second,
    })
  })

  it('R24: staged steering survives a failed turn and is the inherited prefix of the retry turn opened from requestError', async () => {
    const { agent, model, log } = runSpied([{ error: boom }, 'recovered'], (agent) => {
      agent.steer('be careful')
      agent.retry()
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual([
      ...failedTurn.slice(0, 8),
      'enqueue(be careful,steering)',
      'error(1.1)',
      'turn/end(1,error)',
      'turn/start(2,retry)',
      'dequeue(be careful)',
      'steering(be careful)',
      'step/start(2.1)',
      ...answered('recovered', 2),
      'idle',
    ])
    expect(model.requests[1]?.messages.map((m) => textOf(m.content))).toEqual(['go', 'be careful'])
  })

  it('R24: a waking followup queued during the failed turn runs after the retry turn, with no idle between', async () => {
    const { agent, log } = runSpied([{ error: boom }, 'recovered', 'answered'], (agent) => {
      agent.followup('queued')
      agent.retry()
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(log.slice(failedTurn.length - 3)).toEqual([
      'hook(requestError,1.1)',
      'enqueue(queued,queued)',
      'error(1.1)',
      'turn/end(1,error)',
      'turn/start(2,retry)',
      'step/start(2.1)',
      ...answered('recovered', 2),
      ...oneTurn('queued', 'answered', 3).slice(1),
    ])
  })

  it('R24: retry() while busy outside requestError throws AgentBusyError and changes nothing', async () => {
    const log: string[] = []
    const thrown: [string, unknown][] = []
    const attempt = (where: string, agent: Agent) => {
      try {
        agent.retry()
        thrown.push([where, undefined])
      } catch (error) {
        thrown.push([where, error])
      }
    }
    const reply = new Subject<ModelEvent>()
    const { agent, model } = run(
      [reply, 'second'],
      {
        hooks: {
          promptSubmit: ({ agent: a }) => attempt('promptSubmit', a),
          step: ({ agent: a }) => attempt('step', a),
          turnStopping: ({ agent: a }) => attempt('turnStopping', a),
        },
      },
      log,
    )
    agent.followup('go')
    await delay(2)
    expect(model.requests).toHaveLength(1)
    attempt('while the model streams', agent)
    reply.next({ type: 'text', text: 'answer' })
    reply.complete()
    await agent.whenIdle()
    expect(thrown.map(([where]) => where)).toEqual([
      'promptSubmit',
      'step',
      'while the model streams',
      'turnStopping',
    ])
    for (const [, error] of thrown) {
      expect(error).toBeInstanceOf(AgentBusyError)
      expect((error as Error).message).toMatch(/retry\(\)/)
    }
    expect(log).toEqual([...opening('go'), ...answered('answer'), 'idle'])
    expect(model.requests).toHaveLength(1)
  })

  it('R24: retry() from a subscriber of the failed step/end runs before requestError, so it throws AgentBusyError; the hook can still retry', async () => {
    const { agent, model, log } = runSpied([{ error: boom }, 'recovered'], (a) => a.retry())
    const thrown = retryOnStepEnd(agent, 1)
    agent.followup('go')
    await agent.whenIdle()
    expect(thrown).toHaveLength(1)
    expect(thrown[0]).toBeInstanceOf(AgentBusyError)
    expect(log).toEqual(failedThenRecovered)
    expect(model.requests).toHaveLength(2)
  })

  it('R24: without a retry from requestError, a retry() refused in the failed step/end leaves no retry turn behind', async () => {
    const { agent, model, log } = runSpied([{ error: boom }, 'unused'])
    const thrown = retryOnStepEnd(agent, 1)
    agent.followup('go')
    await agent.whenIdle()
    expect(thrown.map((e) => e instanceof AgentBusyError)).toEqual([true])
    expect(log).toEqual([...failedTurn, 'settled(1,error)', 'idle'])
    expect(model.requests).toHaveLength(1)
  })

  it('R24: retry() while idle opens a retry turn at once, with the staged outbox (steering and context) as its inherited prefix', async () => {
    const log: string[] = []
    const reply = new Subject<ModelEvent>()
    const { agent, model } = run([reply, 'retried'], {}, log)
    agent.followup('go')
    await delay(2)
    expect(model.requests).toHaveLength(1)
    agent.steer('s')
    agent.inject('ctx')
    reply.error(boom)
    await agent.whenIdle()
    expect(log).toEqual([
      ...opening('go'),
      'enqueue(s,steering)',
      'step/end(1.1)',
      'error(1.1)',
      'turn/end(1,error)',
      'settled(1,error)',
      'idle',
    ])
    expect(agent.status).toBe('idle')
    const before = log.length
    agent.retry()
    // At once: the retry turn is open before retry() returns.
    expect(log.slice(before, before + 5)).toEqual([
      'running',
      'turn/start(2,retry)',
      'dequeue(s)',
      'steering(s)',
      'user(ctx)',
    ])
    expect(agent.status).toBe('running')
    await agent.whenIdle()
    expect(log.slice(before)).toEqual([
      'running',
      'turn/start(2,retry)',
      'dequeue(s)',
      'steering(s)',
      'user(ctx)',
      'step/start(2.1)',
      ...answered('retried', 2),
      'idle',
    ])
    expect(model.requests[1]?.messages.map((m) => textOf(m.content))).toEqual(['go', 's', 'ctx'])
  })

  it('R24, R6: retry() while idle runs before a wake that is already scheduled', async () => {
    const log: string[] = []
    const { agent, model } = run(['retried', 'answered'], {}, log)
    agent.followup('f')
    agent.retry()
    await agent.whenIdle()
    expect(log).toEqual([
      'enqueue(f,queued)',
      'running',
      'turn/start(1,retry)',
      'step/start(1.1)',
      ...answered('retried'),
      ...oneTurn('f', 'answered', 2).slice(1),
    ])
    expect(model.requests.map((r) => r.turn)).toEqual([1, 2])
  })
})

describe('the model stream contract', () => {
  it('section 3: events after finish are ignored (text, tool calls, malformed events, a late error)', async () => {
    const late = new Observable<unknown>((subscriber) => {
      subscriber.next({ type: 'text', text: 'kept' })
      subscriber.next({ type: 'finish', reason: 'stop', usage: { inputTokens: 3, outputTokens: 1 } })
      subscriber.next({ type: 'text', text: ' ignored' })
      subscriber.next({ type: 'tool-call', id: 'c9', name: 'echo', arguments: '{}' })
      subscriber.next({ type: 'finish', reason: 'max-tokens' })
      subscriber.next({ type: 'bogus' })
      subscriber.error(new Error('late error'))
    })
    const { agent, live, durable, log, seen } = runSpied([late as Observable<ModelEvent>])
    agent.followup('go')
    await agent.whenIdle()
    expect(seen).toEqual([])
    expect(log).toEqual([...opening('go'), ...answered('kept'), 'idle'])
    const assistant = durable.find((e) => e.type === 'assistant/message')
    expect(assistant?.data).toEqual({
      turn: 1,
      step: 1,
      content: [{ type: 'text', text: 'kept' }],
      usage: { inputTokens: 3, outputTokens: 1 },
    })
    expect(live.filter((e) => e.type === 'agent/stream/delta')).toHaveLength(1)
  })

  it('section 3: an asynchronous stream that keeps going after finish is ignored and unsubscribed', async () => {
    let unsubscribed = false
    const events: ModelEvent[] = [
      { type: 'text', text: 'one' },
      { type: 'finish', reason: 'stop' },
      { type: 'text', text: 'two' },
    ]
    const stream = new Observable<ModelEvent>((subscriber) => {
      let i = 0
      const timer = setInterval(() => subscriber.next(events[i++ % events.length] as ModelEvent), 1)
      return () => {
        unsubscribed = true
        clearInterval(timer)
      }
    })
    const { agent, log, durable } = run([stream])
    agent.followup('go')
    await agent.whenIdle()
    expect(unsubscribed).toBe(true)
    expect(log.slice(-5)).toEqual([...answered('one'), 'idle'])
    expect(durable.find((e) => e.type === 'assistant/message')?.data.content).toEqual([
      { type: 'text', text: 'one' },
    ])
  })

  it('section 3: a stream that completes without finish finished with stop', async () => {
    const { agent, log } = run([events({ type: 'text', text: 'no finish' })])
    agent.followup('go')
    await agent.whenIdle()
    expect(log.slice(-5)).toEqual([...answered('no finish'), 'idle'])
  })

  it('section 4, R73: usage on finish is recorded on assistant/message; without it the usage is estimated and marked', async () => {
    const { agent, durable } = run([
      { text: 'counted', usage: { inputTokens: 12, outputTokens: 7 } },
      'uncounted',
      { text: '', finish: 'stop', usage: { inputTokens: 1, outputTokens: 0 } },
    ])
    agent.followup('a')
    agent.followup('b')
    agent.followup('c')
    await agent.whenIdle()
    const answers = durable.flatMap((e) => (e.type === 'assistant/message' ? [e.data] : []))
    expect(answers).toEqual([
      {
        turn: 1,
        step: 1,
        content: [{ type: 'text', text: 'counted' }],
        usage: { inputTokens: 12, outputTokens: 7 },
      },
      {
        turn: 2,
        step: 1,
        content: [{ type: 'text', text: 'uncounted' }],
        // 'uncounted' is 9 characters: 3 tokens at about 4 a token; the prompt holds a, counted, b.
        usage: { inputTokens: 3, outputTokens: 3, estimated: true },
      },
      { turn: 3, step: 1, content: [], usage: { inputTokens: 1, outputTokens: 0 } },
    ])
  })
})

describe('section 3: an adapter that returns an array is answered at once, exactly like the same events as a stream', () => {
  const text = (t: string): ModelEvent => ({ type: 'text', text: t })
  const answers: [string, unknown[]][] = [
    ['text and finish', [text('one'), text(' two'), { type: 'finish', reason: 'stop' }]],
    ['no finish (finished with stop)', [text('no finish')]],
    [
      'events after finish (ignored)',
      [text('kept'), { type: 'finish', reason: 'stop' }, text('x'), { type: 'bogus' }],
    ],
    ['a malformed event mid-answer (a failed request)', [text('partial'), { type: 'bogus' }, text('never')]],
    ['a tool call to an unknown tool', [{ type: 'tool-call', id: 'c1', name: 'nope', arguments: '{}' }]],
    ['nothing at all', []],
  ]
  it.each(answers)('R24, section 3: %s', async (_what, list) => {
    const outcome = async (reply: ScriptedReply) => {
      const { agent, log, durable, live } = runSpied([reply, 'after'])
      agent.followup('go')
      await agent.whenIdle()
      agent.followup('again')
      await agent.whenIdle()
      const errors = live.flatMap((e) => (e.type === 'agent/error' ? [String(e.error)] : []))
      // Ids differ between the two runs; everything else must not.
      const data = durable.map((e) => [
        e.type,
        e.type === 'turn/start' && e.data.trigger.kind === 'message'
          ? { ...e.data, trigger: { ...e.data.trigger, id: undefined } }
          : { ...e.data, id: undefined },
      ])
      return { log, data, errors }
    }
    const asArray = await outcome(() => list as ModelEvent[])
    const asStream = await outcome(() => from(list as ModelEvent[]))
    expect(asArray).toEqual(asStream)
    expect(asArray.log.at(-1)).toBe('idle')
  })

  it('R25: a request kept by the adapter and read only after cancel() has an aborted signal with the cause', async () => {
    let kept: ModelRequest | undefined
    const { agent } = run([
      (request: ModelRequest) => {
        kept = request
        return new Observable<ModelEvent>(() => {})
      },
    ])
    agent.followup('go')
    await delay(1)
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(kept?.signal.aborted).toBe(true)
    expect(kept?.signal.reason).toStrictEqual({ kind: 'user' })
  })
})
