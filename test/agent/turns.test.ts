import { describe, expect, it } from 'vitest'
import { AgentBusyError, memoryStore, type SessionEvent, type SessionStore } from '../../src/index.js'
import { type Deferred, deferred, gate, setup, texts } from '../support/agents.js'
import { answered, oneTurn, opening } from '../support/labels.js'

/** The labels between `turn/start(n)` and `turn/end(n,…)` inclusive. */
const turnSlice = (log: readonly string[], turn: number): string[] => {
  const start = log.indexOf(`turn/start(${turn})`)
  const end = log.findIndex((l) => l.startsWith(`turn/end(${turn},`))
  return log.slice(start, end + 1)
}

/** The `turnSlice` of turn 1 for followup `a`: its first step opens, then `labels`, then it completes. */
const turn1 = (...labels: string[]): string[] => [
  'turn/start(1)',
  'user(a)',
  'step/start(1.1)',
  ...labels,
  'turn/end(1,completed)',
]

/** Steering `text`, sent after step 1.1, drained into a step 1.2 that answers `answer`. */
const steeredStep = (text: string, answer: string): string[] => [
  `enqueue(${text},steering)`,
  `dequeue(${text})`,
  `steering(${text})`,
  'step/start(1.2)',
  `assistant(${answer})`,
  'step/end(1.2)',
]

describe('R7: one send, at most one turn', () => {
  it('R7: N followups become N turns, each with exactly one prompt, in order', async () => {
    const n = 6
    const { agent, model, rec } = setup(Array.from({ length: n }, (_, i) => `r${i + 1}`))
    for (let i = 1; i <= n; i++) agent.followup(`f${i}`)
    await agent.whenIdle()
    for (let i = 1; i <= n; i++) {
      const slice = turnSlice(rec.log, i)
      expect(slice.filter((l) => l.startsWith('user('))).toEqual([`user(f${i})`])
      expect(slice[0]).toBe(`turn/start(${i})`)
    }
    expect(rec.log.filter((l) => l.startsWith('turn/start'))).toHaveLength(n)
    expect(model.requests.map((r) => [r.turn, r.step])).toEqual(
      Array.from({ length: n }, (_, i) => [i + 1, 1]),
    )
    expect(texts(model.requests[2]?.messages ?? [])).toEqual(['f1', 'r1', 'f2', 'r2', 'f3'])
  })

  it('R7: turn numbers continue from history', async () => {
    const first = setup(['one', 'two'])
    first.agent.followup('a')
    first.agent.followup('b')
    await first.agent.whenIdle()
    const history = first.agent.session.events
    const { agent, model, rec } = setup(['three'], { history })
    expect(agent.session.events).toEqual(history)
    agent.followup('c')
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(c,queued)', ...oneTurn('c', 'three', 3)])
    expect(model.requests[0]?.turn).toBe(3)
    expect(texts(model.requests[0]?.messages ?? [])).toEqual(['a', 'one', 'b', 'two', 'c'])
    expect(rec.durable[0]?.seq).toBe(history.length + 1)
  })

  it("R7: turn n+1 is admitted only after turn n's turn/end is durable (V6)", async () => {
    const inner = memoryStore()
    const flushes: Deferred<void>[] = []
    const store: SessionStore = {
      load: () => inner.load(),
      append: (events: readonly SessionEvent[]) => inner.append(events),
      flush: () => {
        const d = deferred()
        flushes.push(d)
        return d.promise
      },
    }
    const { agent, rec } = setup(['one', 'two'], { store })
    agent.followup('a')
    agent.followup('b')
    await rec.when('settled(1,completed)')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(flushes).toHaveLength(1)
    expect(rec.log).not.toContain('dequeue(b)')
    expect(rec.log.at(-1)).toBe('settled(1,completed)')
    flushes[0]?.resolve()
    await rec.when('settled(2,completed)')
    expect(rec.log).toContain('dequeue(b)')
    flushes[1]?.resolve()
    await agent.whenIdle()
    expect(rec.log.at(-1)).toBe('idle')
  })
})

describe('R15: step order', () => {
  it('R15: step hook, drain, step/start, request from session.messages(), assistant, tool pairs, drain, step/end', async () => {
    const hookLogs: [number, string[]][] = []
    const g = gate()
    const { agent, model, rec } = setup(
      [{ text: 'calling', toolCalls: [{ name: 'first' }, { name: 'second' }] }, g.reply],
      {
        instructions: 'be brief',
        hooks: {
          step: ({ agent: a, step }) => {
            hookLogs.push([step, rec.log.slice()])
            if (step === 2) a.inject('from-step-hook')
          },
        },
      },
    )
    agent.followup('a')
    await rec.when('step/start(1.2)')
    agent.inject('during-step-2')
    g.release('done')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      ...opening('a'),
      'assistant(calling)',
      'tool/call(first)',
      'tool/result(call-1,UNKNOWN_TOOL)',
      'tool/call(second)',
      'tool/result(call-2,UNKNOWN_TOOL)',
      'step/end(1.1)',
      'user(from-step-hook)',
      'step/start(1.2)',
      'assistant(done)',
      'user(during-step-2)',
      'step/end(1.2)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
    expect(hookLogs.map(([step, log]) => [step, log.at(-1)])).toEqual([
      [1, 'user(a)'],
      [2, 'step/end(1.1)'],
    ])
    expect(model.requests.map((r) => [r.turn, r.step, r.system])).toEqual([
      [1, 1, 'be brief'],
      [1, 2, 'be brief'],
    ])
    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ])
    expect(texts(model.requests[1]?.messages ?? [])).toEqual([
      'a',
      'calling',
      'result:call-1',
      'result:call-2',
      'from-step-hook',
    ])
  })

  it('R15: a successful finish writes one assistant/message even when its content is empty', async () => {
    const { agent, rec } = setup([{}])
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(a,queued)', ...oneTurn('a', '')])
    expect(agent.session.messages().map((m) => m.role)).toEqual(['user'])
  })

  it('R15: usage and reasoning are recorded on the assistant/message', async () => {
    const usage = { inputTokens: 3, outputTokens: 5 }
    const { agent, rec } = setup([{ reasoning: 'think', text: 'answer', usage }])
    agent.followup('a')
    await agent.whenIdle()
    const assistant = rec.durable.find((e) => e.type === 'assistant/message')
    expect(assistant?.data).toStrictEqual({
      turn: 1,
      step: 1,
      content: [
        { type: 'reasoning', text: 'think' },
        { type: 'text', text: 'answer' },
      ],
      usage,
    })
  })
})

describe('R16: continuation', () => {
  it('R16: steering drained at the end of a step continues the turn with another step', async () => {
    const g = gate()
    const turnStopping: number[] = []
    const { agent, rec } = setup([g.reply, 'second'], {
      hooks: { turnStopping: ({ turn }) => void turnStopping.push(turn) },
    })
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.steer('s')
    g.release('first')
    await agent.whenIdle()
    expect(turnSlice(rec.log, 1)).toEqual(
      turn1(
        'enqueue(s,steering)',
        'assistant(first)',
        'dequeue(s)',
        'steering(s)',
        'step/end(1.1)',
        'step/start(1.2)',
        'assistant(second)',
        'step/end(1.2)',
      ),
    )
    expect(turnStopping).toEqual([1])
  })

  it('R16: context alone never forces a step', async () => {
    const g = gate()
    const { agent, model, rec } = setup([g.reply])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.inject('c')
    g.release('first')
    await agent.whenIdle()
    expect(turnSlice(rec.log, 1)).toEqual(turn1('assistant(first)', 'user(c)', 'step/end(1.1)'))
    expect(model.requests).toHaveLength(1)
  })

  it('R16: steering sent from turnStopping is drained after it and runs another step', async () => {
    let calls = 0
    const { agent, rec } = setup(['first', 'second'], {
      hooks: {
        turnStopping: ({ agent: a }) => {
          calls++
          if (calls === 1) a.steer('more')
        },
      },
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(turnSlice(rec.log, 1)).toEqual(
      turn1('assistant(first)', 'step/end(1.1)', ...steeredStep('more', 'second')),
    )
    expect(calls).toBe(2)
  })

  it('R16: context sent from turnStopping is drained before turn/end without another step', async () => {
    const { agent, model, rec } = setup(['first'], {
      hooks: { turnStopping: ({ agent: a }) => void a.inject('note') },
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(turnSlice(rec.log, 1)).toEqual(turn1('assistant(first)', 'step/end(1.1)', 'user(note)'))
    expect(model.requests).toHaveLength(1)
  })

  it('R16: a turnStopping hook that waits (a Promise) delays the close; steering sent meanwhile runs a step', async () => {
    const wait = deferred()
    let calls = 0
    const { agent, rec } = setup(['first', 'second'], {
      hooks: {
        turnStopping: () => {
          calls++
          return calls === 1 ? wait.promise : undefined
        },
      },
    })
    agent.followup('a')
    await rec.when('step/end(1.1)')
    expect(agent.acceptsNextStep).toBe(true)
    agent.steer('late')
    wait.resolve()
    await agent.whenIdle()
    expect(turnSlice(rec.log, 1).slice(4)).toEqual([
      'step/end(1.1)',
      ...steeredStep('late', 'second'),
      'turn/end(1,completed)',
    ])
  })
})

describe('R19: window close', () => {
  it('R19: a steer sent from a turn/end subscriber is a queued followup that runs next, with no idle', async () => {
    const { agent, rec } = setup(['one', 'two'])
    const windows: boolean[] = []
    agent.transcript$.subscribe((e) => {
      if (e.type === 'turn/end' && e.data.turn === 1) {
        windows.push(agent.acceptsNextStep)
        agent.steer('s')
      }
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(windows).toEqual([false])
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      ...oneTurn('a', 'one').slice(0, -1),
      'enqueue(s,queued)',
      ...oneTurn('s', 'two', 2).slice(1),
    ])
  })

  it('R19: the window is still open for a steer from a step/end subscriber of the last step', async () => {
    const { agent, rec } = setup(['one', 'two'])
    let sent = false
    agent.transcript$.subscribe((e) => {
      if (e.type === 'step/end' && !sent) {
        sent = true
        agent.steer('s')
      }
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(turnSlice(rec.log, 1)).toEqual(
      turn1('assistant(one)', 'step/end(1.1)', ...steeredStep('s', 'two')),
    )
  })
})

describe('R23: failures end the turn, not the agent', () => {
  it('R23: a throwing step hook gives agent/error, turn/end error, settled error; later sends are served', async () => {
    let calls = 0
    const { agent, rec } = setup(['ok'], {
      hooks: {
        step: () => {
          calls++
          if (calls === 1) throw new Error('step hook broke')
        },
      },
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'error(1.1)',
      'turn/end(1,error)',
      'settled(1,error)',
      'idle',
    ])
    const end = rec.durable.find((e) => e.type === 'turn/end')
    expect(end?.data).toStrictEqual({
      turn: 1,
      reason: { kind: 'error', step: 1, message: 'step hook broke' },
    })
    agent.followup('b')
    await agent.whenIdle()
    expect(rec.log.slice(9)).toEqual(['enqueue(b,queued)', ...oneTurn('b', 'ok', 2)])
  })

  it('R24: a failed request closes the step, then agent/error, turn/end error, settled error', async () => {
    const { agent, rec } = setup([{ error: new Error('network down') }])
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      ...opening('a'),
      'step/end(1.1)',
      'error(1.1)',
      'turn/end(1,error)',
      'settled(1,error)',
      'idle',
    ])
  })

  it('R24: retry() inside requestError closes the failed turn without settled or idle and opens a retry turn', async () => {
    const { agent, rec } = setup([{ error: new Error('flaky') }, 'ok'], {
      hooks: { requestError: ({ agent: a }) => a.retry() },
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      ...opening('a'),
      'step/end(1.1)',
      'error(1.1)',
      'turn/end(1,error)',
      'turn/start(2,retry)',
      'step/start(2.1)',
      ...answered('ok', 2),
      'idle',
    ])
  })

  it('R24: retry() while busy outside requestError throws AgentBusyError and changes nothing', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    expect(() => agent.retry()).toThrow(AgentBusyError)
    g.release('done')
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(a,queued)', ...oneTurn('a', 'done')])
  })

  it('R24: retry() while idle opens a retry turn at once, before a wake that is already scheduled', async () => {
    const { agent, rec } = setup(['retried', 'ok'])
    agent.followup('f')
    agent.retry()
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(f,queued)',
      'running',
      'turn/start(1,retry)',
      'step/start(1.1)',
      ...answered('retried'),
      ...oneTurn('f', 'ok', 2).slice(1),
    ])
  })
})
