/**
 * Failing and hanging `step` / `turnStopping` hooks through the public API (R23, R25), and
 * subscribers of `events$` / `transcript$` that throw (section 3).
 */
import { asapScheduler, config, NEVER, Observable, throwError } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type Agent,
  type AgentEvent,
  type AgentHooks,
  createAgent,
  defineTool,
  type SessionEvent,
} from '../../src/index.js'
import { label, scriptedModel } from '../../src/testing.js'
import { deferred, delay, record, run } from '../support/agents.js'
import { answered, oneTurn, opening } from '../support/labels.js'
import { noArgs } from '../support/tools.js'

const hookError = new Error('hook exploded')

/** A tool that answers `ok`, for a turn with a second step. */
const echo = defineTool({ name: 'echo', description: '', parameters: noArgs, execute: () => 'ok' })

/** Ways a hook can fail, each failing with `hookError`. */
const failures: [string, () => unknown][] = [
  [
    'throws synchronously',
    () => {
      throw hookError
    },
  ],
  ['returns a rejected Promise', () => Promise.reject(hookError)],
  [
    'rejects after an await',
    async () => {
      await delay(1)
      throw hookError
    },
  ],
  ['returns an Observable that errors', () => throwError(() => hookError)],
  [
    'returns an Observable that errors later',
    () =>
      new Observable((subscriber) => {
        const timer = setTimeout(() => subscriber.error(hookError), 1)
        return () => clearTimeout(timer)
      }),
  ],
  [
    'returns an AsyncIterable that throws',
    () =>
      (async function* () {
        await delay(1)
        yield* []
        throw hookError
      })(),
  ],
]

/** Checks the payloads of a turn that failed at `step` with `hookError`. */
const expectFailurePayloads = (
  live: readonly AgentEvent[],
  durable: readonly SessionEvent[],
  turn: number,
  step: number,
) => {
  const error = live.find((e) => e.type === 'agent/error')
  expect(error).toMatchObject({ type: 'agent/error', turn, step })
  expect(error?.type === 'agent/error' && error.error).toBe(hookError)
  const end = durable.find((e) => e.type === 'turn/end' && e.data.turn === turn)
  expect(end?.data).toEqual({ turn, reason: { kind: 'error', step, message: 'hook exploded' } })
  const settled = live.find((e) => e.type === 'agent/settled' && e.turn === turn)
  expect(settled?.type === 'agent/settled' && settled.reason).toEqual({ kind: 'error', error: hookError })
}

describe('R23: a failing step hook ends the turn, not the agent', () => {
  it.each(failures)(
    'R23: a step hook that %s: agent/error, turn/end {error, step, message}, settled {error}; the next followup is served',
    async (_what, fail) => {
      let calls = 0
      const hooks: AgentHooks<Agent> = {
        step: () => {
          calls++
          return calls === 1 ? fail() : undefined
        },
      }
      const { agent, model, log, live, durable } = run(['second answer', 'third answer'], { hooks })
      agent.followup('go')
      agent.followup('next')
      await agent.whenIdle()
      expect(log).toEqual([
        'enqueue(go,queued)',
        'enqueue(next,queued)',
        'running',
        'dequeue(go)',
        'turn/start(1)',
        'user(go)',
        'error(1.1)',
        'turn/end(1,error)',
        'settled(1,error)',
        ...oneTurn('next', 'second answer', 2).slice(1),
      ])
      expectFailurePayloads(live, durable, 1, 1)
      // The failed turn never reached the model.
      expect(model.requests.map((r) => r.turn)).toEqual([2])
      expect(model.requests[0]?.messages.map((m) => m.content[0])).toEqual([
        { type: 'text', text: 'go' },
        { type: 'text', text: 'next' },
      ])
      // After idle it serves again too.
      agent.followup('later')
      await agent.whenIdle()
      expect(log.slice(-3)).toEqual(['turn/end(3,completed)', 'settled(3,completed)', 'idle'])
    },
  )

  it('R23: a step hook failing before step 2 ends the turn with step 2; step 1 stays recorded', async () => {
    const hooks: AgentHooks<Agent> = {
      step: ({ step }) => {
        if (step === 2) throw hookError
      },
    }
    const { agent, model, log, live, durable } = run([{ toolCalls: [{ name: 'echo' }] }], {
      hooks,
      tools: [echo],
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual([
      ...opening('go'),
      'assistant(echo())',
      'tool/call(echo)',
      'tool/result(call-1)',
      'step/end(1.1)',
      'error(1.2)',
      'turn/end(1,error)',
      'settled(1,error)',
      'idle',
    ])
    expectFailurePayloads(live, durable, 1, 2)
    expect(model.requests).toHaveLength(1)
  })

  it('R23: in an array of step hooks the ones before the failing hook ran, the ones after did not', async () => {
    const ran: string[] = []
    const hooks: AgentHooks<Agent> = {
      step: [
        () => {
          ran.push('first')
        },
        () => {
          ran.push('second')
          throw hookError
        },
        () => {
          ran.push('third')
        },
      ],
    }
    const { agent, log, live, durable } = run([], { hooks })
    agent.followup('go')
    await agent.whenIdle()
    expect(ran).toEqual(['first', 'second'])
    expect(log.slice(-4)).toEqual(['error(1.1)', 'turn/end(1,error)', 'settled(1,error)', 'idle'])
    expectFailurePayloads(live, durable, 1, 1)
  })

  it('R23, R20: staged context is appended after the failed turn/end; staged steering stays for the next prompt', async () => {
    const hooks: AgentHooks<Agent> = {
      step: ({ agent, turn }) => {
        if (turn !== 1) return
        agent.inject('ctx')
        agent.steer('s')
        throw hookError
      },
    }
    const { agent, model, log } = run(['fine'], { hooks })
    agent.followup('go')
    await agent.whenIdle()
    expect(log).toEqual([
      'enqueue(go,queued)',
      'running',
      'dequeue(go)',
      'turn/start(1)',
      'user(go)',
      'enqueue(s,steering)',
      'error(1.1)',
      'turn/end(1,error)',
      'settled(1,error)',
      'idle',
    ])
    agent.followup('next')
    await agent.whenIdle()
    expect(log.slice(log.indexOf('enqueue(next,queued)'))).toEqual([
      'enqueue(next,queued)',
      'running',
      'dequeue(next)',
      'turn/start(2)',
      'user(ctx)',
      'dequeue(s)',
      'steering(s)',
      'user(next)',
      'step/start(2.1)',
      ...answered('fine', 2),
      'idle',
    ])
    expect(model.requests[0]?.messages.map((m) => m.content[0])).toEqual([
      { type: 'text', text: 'go' },
      { type: 'text', text: 'ctx' },
      { type: 'text', text: 's' },
      { type: 'text', text: 'next' },
    ])
  })
})

describe('R23: a failing turnStopping hook', () => {
  it.each(failures)(
    'R23: a turnStopping hook that %s: agent/error, turn/end {error, step, message}, settled {error}; the next followup is served',
    async (_what, fail) => {
      let calls = 0
      const hooks: AgentHooks<Agent> = {
        turnStopping: () => {
          calls++
          return calls === 1 ? fail() : undefined
        },
      }
      const { agent, log, live, durable } = run(['first answer', 'second answer'], { hooks })
      agent.followup('go')
      agent.followup('next')
      await agent.whenIdle()
      expect(log).toEqual([
        'enqueue(go,queued)',
        'enqueue(next,queued)',
        'running',
        'dequeue(go)',
        'turn/start(1)',
        'user(go)',
        'step/start(1.1)',
        'assistant(first answer)',
        'step/end(1.1)',
        'error(1.1)',
        'turn/end(1,error)',
        'settled(1,error)',
        ...oneTurn('next', 'second answer', 2).slice(1),
      ])
      expectFailurePayloads(live, durable, 1, 1)
      expect(calls).toBe(2)
    },
  )

  it('R23: a turnStopping hook failing after a tool step reports the last step', async () => {
    const hooks: AgentHooks<Agent> = {
      turnStopping: () => {
        throw hookError
      },
    }
    const { agent, log, live, durable } = run([{ toolCalls: [{ name: 'echo' }] }, 'done'], {
      hooks,
      tools: [echo],
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(log.slice(-6)).toEqual([
      'assistant(done)',
      'step/end(1.2)',
      'error(1.2)',
      'turn/end(1,error)',
      'settled(1,error)',
      'idle',
    ])
    expectFailurePayloads(live, durable, 1, 2)
  })
})

describe('R25: a hook that never completes until cancelled', () => {
  const hangs: [string, (signal: AbortSignal) => unknown][] = [
    ['an Observable that never completes (NEVER)', () => NEVER],
    ['a Promise that never settles', () => new Promise(() => {})],
    [
      'a Promise that rejects with the abort reason',
      (signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    ],
  ]
  it.each(hangs)('R25, R23: a step hook returning %s: cancel ends the turn aborted', async (_what, hang) => {
    let signal: AbortSignal | undefined
    const inHook = deferred()
    const hooks: AgentHooks<Agent> = {
      step: (args) => {
        signal = args.signal
        inHook.resolve()
        return hang(args.signal)
      },
    }
    const { agent, model, log, live } = run([], { hooks })
    agent.followup('go')
    await inHook.promise
    await delay(2)
    expect(log.at(-1)).toBe('user(go)')
    expect(agent.status).toBe('running')
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(log).toEqual([
      'enqueue(go,queued)',
      'running',
      'dequeue(go)',
      'turn/start(1)',
      'user(go)',
      'cancel(user)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'idle',
    ])
    expect(signal?.aborted).toBe(true)
    expect(signal?.reason).toEqual({ kind: 'user' })
    expect(model.requests).toHaveLength(0)
    expect(live.filter((e) => e.type === 'agent/error')).toEqual([])
  })

  it('R25: a turnStopping hook that never completes: cancel ends the turn aborted after its step', async () => {
    const inHook = deferred()
    const hooks: AgentHooks<Agent> = {
      turnStopping: () => {
        inHook.resolve()
        return NEVER
      },
    }
    const { agent, log } = run(['answer'], { hooks })
    agent.followup('go')
    await inHook.promise
    agent.cancel({ kind: 'parent' })
    await agent.whenIdle()
    expect(log).toEqual([
      ...opening('go'),
      'assistant(answer)',
      'step/end(1.1)',
      'cancel(parent)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'idle',
    ])
  })

  it('R23, R25 (virtual time): a step hook erroring at 5ms fails the turn; a hanging step hook cancelled at 20ms ends it aborted', () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
    scheduler.run(({ cold, flush }) => {
      const log: string[] = []
      const at = (entry: string) => log.push(`${scheduler.now()}:${entry}`)
      const hooks: AgentHooks<Agent> = {
        step: ({ turn }) => (turn === 1 ? cold('5ms #', {}, hookError) : cold('-')),
      }
      const agent = createAgent({ model: scriptedModel([]), hooks, scheduler })
      agent.events$.subscribe((e) => at(label(e)))
      agent.transcript$.subscribe((e) => at(label(e)))
      agent.followup('go')
      agent.followup('next')
      scheduler.schedule(() => agent.cancel({ kind: 'user' }), 20)
      flush()
      expect(log).toEqual([
        '0:enqueue(go,queued)',
        '0:enqueue(next,queued)',
        '0:running',
        '0:dequeue(go)',
        '0:turn/start(1)',
        '0:user(go)',
        '5:error(1.1)',
        '5:turn/end(1,error)',
        '5:settled(1,error)',
        '5:dequeue(next)',
        '5:turn/start(2)',
        '5:user(next)',
        '20:cancel(user)',
        '20:turn/end(2,aborted)',
        '20:settled(2,aborted)',
        '20:idle',
      ])
    })
  })
})

describe('section 3: subscribers that throw', () => {
  const previous = config.onUnhandledError
  afterEach(() => {
    config.onUnhandledError = previous
  })

  const scenario = (before: (agent: Agent) => void) => {
    const echoNote = defineTool({
      name: 'echo',
      description: '',
      parameters: noArgs,
      execute: (_args, ctx) => {
        ctx.context('note')
        return 'ok'
      },
    })
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [{ name: 'echo' }] }, 'done', 'second', 'third']),
      tools: [echoNote],
      scheduler: asapScheduler,
    })
    before(agent)
    return { agent, log: record(agent).log }
  }

  const drive = async (agent: Agent) => {
    agent.followup('go')
    agent.followup('next')
    await agent.whenIdle()
    agent.inject('idle fact')
    await agent.session.flush()
  }

  it('§3: subscribers of events$, transcript$ and status$ that throw are reported through config.onUnhandledError and change nothing', async () => {
    const reference = scenario(() => {})
    await drive(reference.agent)

    const reported: unknown[] = []
    config.onUnhandledError = (error) => {
      reported.push(error)
    }
    let thrownLive = 0
    let thrownDurable = 0
    let thrownStatus = 0
    const { agent, log } = scenario((a) => {
      a.events$.subscribe(() => {
        thrownLive++
        throw new Error('live subscriber failed')
      })
      a.transcript$.subscribe(() => {
        thrownDurable++
        throw new Error('durable subscriber failed')
      })
      a.status$.subscribe(() => {
        thrownStatus++
        throw new Error('status subscriber failed')
      })
    })
    await drive(agent)
    expect(log).toEqual(reference.log)
    expect(agent.session.events.map(label)).toEqual(reference.agent.session.events.map(label))
    expect(agent.status).toBe('idle')
    // The throwing subscribers stayed subscribed and saw every event.
    expect(thrownDurable).toBe(agent.session.events.length)
    expect(thrownLive).toBeGreaterThanOrEqual(log.length - agent.session.events.length)
    expect(thrownStatus).toBe(3) // idle on subscribe, then running, idle
    // RxJS reports unhandled errors asynchronously.
    await delay(5)
    expect(reported.length).toBe(thrownLive + thrownDurable + thrownStatus)
    expect(reported.every((e) => e instanceof Error && /subscriber failed/.test(e.message))).toBe(true)
    // Later work still runs.
    agent.followup('third')
    await agent.whenIdle()
    expect(log.slice(-3)).toEqual(['turn/end(3,completed)', 'settled(3,completed)', 'idle'])
    await delay(5)
    expect(reported.length).toBe(thrownLive + thrownDurable + thrownStatus)
  })
})
