/** R68, R70–R72 through the public API: an interrupting steer, one cancelled call, live tool events. */
import { filter, first, NEVER, type Observable, Subject } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAgent } from '../../src/agent/createAgent.js'
import type { Agent } from '../../src/contracts/agent.js'
import { InvalidInputError } from '../../src/contracts/errors.js'
import type { AgentMessageId } from '../../src/contracts/messages.js'
import type { ModelEvent } from '../../src/contracts/model.js'
import { label } from '../../src/testing/label.js'
import { defineTool } from '../../src/tools/defineTool.js'

const text = (t: string): ModelEvent => ({ type: 'text', text: t })
const finish: ModelEvent = { type: 'finish', reason: 'stop' }

/** First request streams from `stream`; later ones answer `ok`. */
const streamingAgent = (stream: Subject<ModelEvent>) => {
  const reasons: unknown[] = []
  let n = 0
  const agent = createAgent({
    model: (req) => {
      if (++n > 1) return [text('ok'), finish]
      req.signal.addEventListener('abort', () => reasons.push(req.signal.reason))
      return stream
    },
  })
  const log: string[] = []
  agent.events$.subscribe((e) => log.push(label(e)))
  agent.transcript$.subscribe((e) => log.push(label(e)))
  return { agent, log, reasons }
}

const started = (agent: Agent) =>
  new Promise<void>((resolve) =>
    agent.transcript$.pipe(first((e) => e.type === 'step/start')).subscribe(() => resolve()),
  )

const CUT_TAIL = [
  'assistant(one ,cut)',
  'dequeue(stop)',
  'steering(stop,cut)',
  'step/end(1.1,cut)',
  'step/start(1.2)',
  'delta(ok)',
  'assistant(ok)',
  'step/end(1.2)',
  'turn/end(1,completed)',
  'settled(1,completed)',
  'idle',
]

describe('R68: an interrupting steer cuts the streamed answer', () => {
  it.each([
    ['the first delta', ['one '], 'one '],
    ['a middle delta', ['one ', 'two '], 'one two '],
  ])(
    'R68, R69: at %s: no delta after the enqueue, the request aborted and unsubscribed, the partial text kept, the steer drained, the next step runs',
    async (_at, deltas, kept) => {
      const stream = new Subject<ModelEvent>()
      const { agent, log, reasons } = streamingAgent(stream)
      agent.followup('hi')
      await started(agent)
      for (const d of deltas) stream.next(text(d))
      const id = agent.steer('stop', { interrupt: true })
      stream.next(text('late'))
      stream.next(finish)
      await agent.whenIdle()
      const from = log.indexOf('enqueue(stop,steering)')
      expect(log.slice(from + 1)).toEqual(CUT_TAIL.map((l) => l.replace('one ,cut', `${kept},cut`)))
      expect(log.filter((l) => l === 'delta(late)')).toEqual([])
      expect(reasons).toEqual([{ kind: 'interrupted' }])
      expect(stream.observed).toBe(false)
      expect(await agent.outcome(id)).toMatchObject({
        kind: 'delivered',
        as: 'steering',
        turn: 1,
        step: 1,
        interrupted: { turn: 1, step: 1 },
      })
      // The second request holds the partial answer, then the steer.
      expect(agent.session.messages().map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    },
  )

  it('R68: nothing streamed yet: no assistant message, the cut step still ends interrupted', async () => {
    const stream = new Subject<ModelEvent>()
    const { agent, log } = streamingAgent(stream)
    agent.followup('hi')
    await started(agent)
    agent.steer('stop', { interrupt: true })
    await agent.whenIdle()
    const from = log.indexOf('enqueue(stop,steering)')
    expect(log.slice(from + 1, from + 5)).toEqual([
      'dequeue(stop)',
      'steering(stop,cut)',
      'step/end(1.1,cut)',
      'step/start(1.2)',
    ])
  })

  it('R68: the tool calls of a cut step are dropped, so none is left without a result', async () => {
    const stream = new Subject<ModelEvent>()
    const { agent, log } = streamingAgent(stream)
    agent.followup('hi')
    await started(agent)
    stream.next(text('one '))
    stream.next({ type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' })
    agent.steer('stop', { interrupt: true })
    await agent.whenIdle()
    expect(log.filter((l) => l.startsWith('tool/'))).toEqual([])
    expect(log).toContain('assistant(one ,cut)')
  })

  it('R68: after the finish (tools running), interrupt is a plain steer drained at the step end', async () => {
    let release!: (v: string) => void
    const wait = defineTool({
      name: 'wait',
      description: 'w',
      parameters: z.object({}),
      execute: () => new Promise<string>((r) => (release = r)),
    })
    let n = 0
    const agent = createAgent({
      tools: [wait],
      model: () =>
        ++n === 1
          ? [{ type: 'tool-call', id: 'c1', name: 'wait', arguments: '{}' }, finish]
          : [text('ok'), finish],
    })
    const log: string[] = []
    agent.transcript$.subscribe((e) => log.push(label(e)))
    agent.followup('hi')
    await new Promise<void>((r) =>
      agent.events$.pipe(first((e) => e.type === 'agent/tool/start')).subscribe(() => r()),
    )
    const id = agent.steer('stop', { interrupt: true })
    release('done')
    await agent.whenIdle()
    expect(log.slice(log.indexOf('tool/call(wait)'))).toEqual([
      'tool/call(wait)',
      'tool/result(c1)',
      'steering(stop)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(ok)',
      'step/end(1.2)',
      'turn/end(1,completed)',
    ])
    expect(await agent.outcome(id)).not.toHaveProperty('interrupted')
  })

  it('R68: two interrupting steers in one stack: the first cuts, the second is plain and drained into the next step', async () => {
    const stream = new Subject<ModelEvent>()
    const { agent, log } = streamingAgent(stream)
    agent.followup('hi')
    await started(agent)
    stream.next(text('one '))
    let b = '' as AgentMessageId
    // The second is sent by a subscriber of the first's enqueue: one call stack.
    agent.events$
      .pipe(first((e) => e.type === 'agent/inbox/enqueue' && e.placement === 'steering'))
      .subscribe(() => {
        b = agent.steer('also', { interrupt: true })
      })
    const a = agent.steer('stop', { interrupt: true })
    await agent.whenIdle()
    const from = log.indexOf('enqueue(stop,steering)')
    expect(log.slice(from, from + 9)).toEqual([
      'enqueue(stop,steering)',
      'assistant(one ,cut)',
      'dequeue(stop)',
      'steering(stop,cut)',
      'step/end(1.1,cut)',
      // Applied before step 2 opens: drained at its start (R20a), plain.
      'enqueue(also,steering)',
      'dequeue(also)',
      'steering(also)',
      'step/start(1.2)',
    ])
    expect(await agent.outcome(a)).toMatchObject({ interrupted: { turn: 1, step: 1 } })
    expect(await agent.outcome(b)).toMatchObject({ as: 'steering', step: 2 })
    expect(await agent.outcome(b)).not.toHaveProperty('interrupted')
  })

  it('R68, R25: an interrupting steer and cancel() in one stack: the cut lands, then the turn ends aborted', async () => {
    const stream = new Subject<ModelEvent>()
    const { agent, log } = streamingAgent(stream)
    agent.followup('hi')
    await started(agent)
    stream.next(text('one '))
    agent.events$
      .pipe(first((e) => e.type === 'agent/inbox/enqueue' && e.placement === 'steering'))
      .subscribe(() => agent.cancel({ kind: 'user' }))
    agent.steer('stop', { interrupt: true })
    await agent.whenIdle()
    expect(log).toContain('steering(stop,cut)')
    expect(log).toContain('turn/end(1,aborted)')
    expect(log.filter((l) => l === 'delta(ok)')).toEqual([])
  })

  it('R68: interrupt while idle is a plain steer (queued like a followup)', async () => {
    const agent = createAgent({ model: () => [text('ok'), finish] })
    const id = agent.steer('hi', { interrupt: true })
    await agent.whenIdle()
    expect(await agent.outcome(id)).toMatchObject({ kind: 'delivered', as: 'prompt' })
  })

  it("R68, R2: interrupt with target 'next-turn' (or without wakeup) is InvalidInputError, and nothing is accepted", () => {
    const agent = createAgent({ model: () => [text('ok'), finish] })
    expect(() => agent.send('x', { target: 'next-turn', wakeup: true, interrupt: true })).toThrow(
      InvalidInputError,
    )
    expect(() => agent.send('x', { target: 'next-step', wakeup: false, interrupt: true })).toThrow(
      /interrupt needs/,
    )
    expect(() => agent.followup('x', { interrupt: true } as never)).toThrow(InvalidInputError)
    expect(() => agent.steer('x', { interrupt: 'yes' } as never)).toThrow(InvalidInputError)
    expect(agent.inbox.queue).toEqual([])
    expect(agent.status).toBe('idle')
  })
})

/** Two parallel tools: `wait` ignores its signal and never settles; `quick` answers when released. */
const cancelAgent = (onWaitCtx?: (ctx: { steering$: Observable<unknown>; signal: AbortSignal }) => void) => {
  let release!: (v: string) => void
  const tools = [
    defineTool({
      name: 'wait',
      description: 'w',
      parameters: z.object({}),
      parallel: true,
      execute: (_a, ctx) => {
        onWaitCtx?.(ctx)
        return NEVER
      },
    }),
    defineTool({
      name: 'quick',
      description: 'q',
      parameters: z.object({}),
      parallel: true,
      execute: () => new Promise<string>((r) => (release = r)),
    }),
  ]
  let n = 0
  const agent = createAgent({
    tools,
    model: () =>
      ++n === 1
        ? [
            { type: 'tool-call', id: 'c1', name: 'wait', arguments: '{}' },
            { type: 'tool-call', id: 'c2', name: 'quick', arguments: '{}' },
            { type: 'finish', reason: 'tool-calls' },
          ]
        : [text('ok'), finish],
  })
  const log: string[] = []
  agent.events$.pipe(filter((e) => e.type !== 'agent/stream/delta')).subscribe((e) => log.push(label(e)))
  agent.transcript$.subscribe((e) => log.push(label(e)))
  const bothStarted = new Promise<void>((r) =>
    agent.events$
      .pipe(
        filter((e) => e.type === 'agent/tool/start' && e.callId === 'c2'),
        first(),
      )
      .subscribe(() => r()),
  )
  return { agent, log, bothStarted, release: (v: string) => release(v) }
}

describe('R71, R72: cancel one tool call; the live tool lifecycle', () => {
  it('R71, R72: the cancelled call gets CANCELLED at once, its signal aborts, its sibling and the turn go on; a second cancel is false', async () => {
    let signal: AbortSignal | undefined
    const { agent, log, bothStarted, release } = cancelAgent((ctx) => {
      signal = ctx.signal
    })
    agent.followup('go')
    await bothStarted
    expect(agent.cancelToolCall('c1', { reason: 'slow' })).toBe(true)
    expect(signal?.aborted).toBe(true)
    expect(agent.cancelToolCall('c1')).toBe(false)
    release('done')
    await agent.whenIdle()
    expect(log.slice(log.indexOf('tool/start(c1)'))).toEqual([
      'tool/start(c1)',
      'tool/start(c2)',
      'tool/end(c1,CANCELLED)',
      'tool/call(wait)',
      'tool/result(c1,CANCELLED)',
      'tool/end(c2)',
      'tool/call(quick)',
      'tool/result(c2)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(ok)',
      'step/end(1.2)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
    const result = agent.session.events.find((e) => e.type === 'tool/result')
    expect(JSON.stringify(result)).toContain('Reason: slow')
  })

  it('R71, R2: unknown, empty or settled ids are false, a non-string InvalidInputError; nothing changes', async () => {
    const { agent, bothStarted, release } = cancelAgent()
    expect(agent.cancelToolCall('c1')).toBe(false)
    // The model may send an empty id, so '' is a reference like any other: no call has it here.
    expect(agent.cancelToolCall('')).toBe(false)
    expect(() => agent.cancelToolCall(42 as never)).toThrow(InvalidInputError)
    expect(() => agent.cancelToolCall('c1', { reason: 3 } as never)).toThrow(InvalidInputError)
    expect(() => agent.cancelToolCall('c1', { why: 'x' } as never)).toThrow(InvalidInputError)
    agent.followup('go')
    await bothStarted
    expect(agent.cancelToolCall('nope')).toBe(false)
    agent.cancelToolCall('c1')
    release('done')
    await agent.whenIdle()
    expect(agent.cancelToolCall('c2')).toBe(false)
    const results = agent.session.events.filter((e) => e.type === 'tool/result')
    expect(results).toHaveLength(2)
  })

  it('R71: a tool that ignores its signal and answers late has its late result dropped, never appended twice', async () => {
    let answer!: (v: string) => void
    let n = 0
    const agent = createAgent({
      tools: [
        defineTool({
          name: 'stubborn',
          description: 's',
          parameters: z.object({}),
          execute: () => new Promise<string>((r) => (answer = r)),
        }),
      ],
      model: () =>
        ++n === 1
          ? [{ type: 'tool-call', id: 'c1', name: 'stubborn', arguments: '{}' }, finish]
          : [text('ok'), finish],
    })
    agent.followup('go')
    await new Promise<void>((r) =>
      agent.events$.pipe(first((e) => e.type === 'agent/tool/start')).subscribe(() => r()),
    )
    expect(agent.cancelToolCall('c1')).toBe(true)
    await agent.whenIdle()
    answer('late')
    await new Promise((r) => setTimeout(r, 0))
    const results = agent.session.events.filter((e) => e.type === 'tool/result')
    expect(results).toHaveLength(1)
    expect(JSON.stringify(results[0])).toContain('CANCELLED')
  })

  it('R70: ctx.steering$ hears each steer applied while the call runs, and completes when the call settles', async () => {
    const heard: string[] = []
    let completed = false
    const { agent, bothStarted, release } = cancelAgent((ctx) => {
      ctx.steering$.subscribe({
        next: (m) => heard.push((m as { id: string }).id),
        complete: () => {
          completed = true
        },
      })
    })
    agent.followup('go')
    await bothStarted
    const a = agent.steer('one')
    const b = agent.steer('two', { interrupt: true })
    expect(heard).toEqual([a, b])
    expect(completed).toBe(false)
    agent.cancelToolCall('c1')
    expect(completed).toBe(true)
    release('done')
    await agent.whenIdle()
    // The steers still entered at the drain after the batch (R21).
    expect(agent.session.events.filter((e) => e.type === 'steering/message')).toHaveLength(2)
  })

  it("R70, V9: two calls of a step that share an id: the second call's steering$ stays open when the first settles", async () => {
    let second: Observable<unknown> | undefined
    let release!: (v: string) => void
    let n = 0
    const agent = createAgent({
      tools: [
        defineTool({
          name: 'quick',
          description: 'q',
          parameters: z.object({}),
          parallel: true,
          execute: () => new Promise<string>((r) => (release = r)),
        }),
        defineTool({
          name: 'wait',
          description: 'w',
          parameters: z.object({}),
          parallel: true,
          execute: (_a, ctx) => {
            second = ctx.steering$
            return NEVER
          },
        }),
      ],
      model: () =>
        ++n === 1
          ? [
              { type: 'tool-call', id: 'c1', name: 'quick', arguments: '{}' },
              { type: 'tool-call', id: 'c1', name: 'wait', arguments: '{}' },
              { type: 'finish', reason: 'tool-calls' },
            ]
          : [text('ok'), finish],
    })
    const waitStarted = new Promise<void>((r) =>
      agent.events$
        .pipe(
          filter((e) => e.type === 'agent/tool/start' && e.index === 1),
          first(),
        )
        .subscribe(() => r()),
    )
    agent.followup('go')
    await waitStarted
    const heard: string[] = []
    let completed = false
    second?.subscribe({
      next: (m) => heard.push((m as { id: string }).id),
      complete: () => {
        completed = true
      },
    })
    release('done')
    await new Promise<void>((r) =>
      agent.events$
        .pipe(
          filter((e) => e.type === 'agent/tool/end' && e.index === 0),
          first(),
        )
        .subscribe(() => r()),
    )
    expect(completed).toBe(false)
    const steer = agent.steer('still listening?')
    expect(heard).toEqual([steer])
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(completed).toBe(true)
  })

  it('R71, R61: a call that waits for approval is settled CANCELLED without running, and the pause ends', async () => {
    let ran = false
    let n = 0
    const agent = createAgent({
      tools: [
        defineTool({
          name: 'rm',
          description: 'r',
          parameters: z.object({}),
          needsApproval: true,
          execute: () => {
            ran = true
            return 'gone'
          },
        }),
      ],
      model: () =>
        ++n === 1
          ? [{ type: 'tool-call', id: 'c1', name: 'rm', arguments: '{}' }, finish]
          : [text('ok'), finish],
    })
    agent.followup('go')
    await new Promise<void>((r) =>
      agent.events$.pipe(first((e) => e.type === 'agent/approval/requested')).subscribe(() => r()),
    )
    expect(agent.status).toBe('paused')
    expect(agent.cancelToolCall('c1', { reason: 'changed my mind' })).toBe(true)
    await agent.whenIdle()
    expect(ran).toBe(false)
    const decision = agent.session.events.find((e) => e.type === 'approval/decision')
    expect(decision?.data).toMatchObject({ decision: 'denied', cancelled: true, reason: 'changed my mind' })
    const result = agent.session.events.find((e) => e.type === 'tool/result')
    expect(result?.data).toMatchObject({ result: { code: 'CANCELLED' } })
  })
})
