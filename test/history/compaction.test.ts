/** R74–R76 through the public API: compaction is a durable event between turns that loses nothing. */

import { firstValueFrom, NEVER, Subject } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createAgent } from '../../src/agent/createAgent.js'
import type { Summarizer } from '../../src/contracts/compaction.js'
import { InvalidInputError } from '../../src/contracts/errors.js'
import type { AgentEvent } from '../../src/contracts/events.js'
import type { Message } from '../../src/contracts/messages.js'
import type { ModelEvent, ModelRequest } from '../../src/contracts/model.js'
import { label } from '../../src/testing/label.js'

const texts = (messages: readonly Message[]) =>
  messages.map((m) => `${m.role}:${m.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('')}`)

const lastUserText = (req: ModelRequest) => {
  const lastUser = [...req.messages].reverse().find((m) => m.role === 'user')
  return lastUser?.content[0]?.type === 'text' ? lastUser.content[0].text : '?'
}

/** Answers each prompt with `re:<prompt>`; a summary request (step 0) with `summary of N`. */
const echo =
  (seen: ModelRequest[] = []) =>
  (req: ModelRequest): ModelEvent[] => {
    seen.push(req)
    if (req.step === 0)
      return [
        { type: 'text', text: `summary of ${req.messages.length - 1}` },
        { type: 'finish', reason: 'stop', usage: { inputTokens: 50, outputTokens: 5 } },
      ]
    return [
      { type: 'text', text: `re:${lastUserText(req)}` },
      { type: 'finish', reason: 'stop' },
    ]
  }

const withTurns = async (n: number, options: Parameters<typeof createAgent>[0] = { model: echo() }) => {
  const agent = createAgent(options)
  for (let i = 1; i <= n; i++) agent.followup(`p${i}`)
  await agent.whenIdle()
  return agent
}

const recorded = (agent: ReturnType<typeof createAgent>) => {
  const events: AgentEvent[] = []
  agent.events$.subscribe((e) => events.push(e))
  return events
}

describe('R74: compact()', () => {
  it('R74: while idle it runs at once with the model and the built-in prompt, keeping the last turn', async () => {
    const seen: ModelRequest[] = []
    const agent = await withTurns(3, { model: echo(seen) })
    const events = recorded(agent)
    const result = await agent.compact()
    expect(result).toMatchObject({ kind: 'compacted', summary: [{ type: 'text', text: 'summary of 4' }] })
    expect(texts(agent.session.messages())).toEqual(['user:summary of 4', 'user:p3', 'assistant:re:p3'])
    const summaryRequest = seen.at(-1) as ModelRequest
    expect(summaryRequest.step).toBe(0)
    expect(summaryRequest.tools).toEqual([])
    expect(texts(summaryRequest.messages).slice(0, 4)).toEqual([
      'user:p1',
      'assistant:re:p1',
      'user:p2',
      'assistant:re:p2',
    ])
    // R73: the summary's request counts, with the usage its provider reported.
    const turns = seen.slice(0, 3).length
    expect(agent.usage).toMatchObject({ requests: turns + 1, estimatedRequests: turns })
    expect(agent.usage.inputTokens).toBeGreaterThanOrEqual(50)
    expect(agent.usage.outputTokens).toBeGreaterThanOrEqual(5)
    const compaction = agent.session.events.at(-1)
    expect(compaction).toMatchObject({
      type: 'compaction',
      data: { usage: { inputTokens: 50, outputTokens: 5 } },
    })
    expect(events.map(label)).toEqual(['running', 'compaction/start', 'compaction/end(compacted)', 'idle'])
    await agent.whenIdle()
    expect(agent.status).toBe('idle')
  })

  it('R74: the log keeps every event; the next turn sees the summary and the tail', async () => {
    const seen: ModelRequest[] = []
    const agent = await withTurns(3, { model: echo(seen) })
    const before = agent.session.events.length
    await agent.compact({ keepLastTurns: 0 })
    expect(agent.session.events.length).toBe(before + 1)
    expect(texts(agent.session.messages())).toEqual(['user:summary of 6'])
    agent.followup('p4')
    await agent.whenIdle()
    expect(texts((seen.at(-1) as ModelRequest).messages)).toEqual(['user:summary of 6', 'user:p4'])
  })

  it('R74: a second compaction folds the first summary into the new one, and never keeps it in the tail', async () => {
    const agent = await withTurns(3)
    await agent.compact()
    agent.followup('p4')
    await agent.whenIdle()
    const summarised: (readonly Message[])[] = []
    const summarize: Summarizer = (messages) => {
      summarised.push(messages)
      return 'second'
    }
    await agent.compact({ summarize })
    expect(texts(summarised[0] as readonly Message[])).toEqual([
      'user:summary of 4',
      'user:p3',
      'assistant:re:p3',
    ])
    expect(texts(agent.session.messages())).toEqual(['user:second', 'user:p4', 'assistant:re:p4'])
  })

  it('R74: with nothing before the kept tail it is skipped and appends nothing', async () => {
    const agent = await withTurns(1)
    const before = agent.session.events.length
    await expect(agent.compact()).resolves.toEqual({ kind: 'skipped' })
    expect(agent.session.events.length).toBe(before)
  })

  it('R74: a session reopened from its log shows the same messages', async () => {
    const agent = await withTurns(3)
    await agent.compact()
    const reopened = createAgent({ model: echo(), history: agent.session.events })
    expect(reopened.session.messages()).toEqual(agent.session.messages())
  })

  it('R74: asked while a turn runs, it runs after that turn and before the next admission', async () => {
    const answers = new Subject<ModelEvent>()
    const agent = createAgent({
      model: (req) => (req.step === 0 ? [{ type: 'text', text: 'S' } as const] : answers),
    })
    agent.followup('p1')
    await firstValueFrom(agent.events$) // the claim has begun
    const events = recorded(agent)
    const compacted = agent.compact({ keepLastTurns: 0 })
    agent.followup('p2')
    answers.next({ type: 'text', text: 'a1' })
    answers.complete()
    expect(await compacted).toMatchObject({ kind: 'compacted' })
    await agent.whenIdle()
    const order = events.map(label).filter((l) => /compaction|dequeue|settled/.test(l))
    expect(order).toEqual([
      'settled(1,completed)',
      'compaction/start',
      'compaction/end(compacted)',
      'dequeue(p2)',
      'settled(2,completed)',
    ])
  })
})

describe('R75: nothing waiting is lost', () => {
  it('R75: sends during a compaction are routed as at a turn boundary; the summariser never sees them', async () => {
    const agent = await withTurns(2)
    const gate = new Subject<string>()
    const summarised: (readonly Message[])[] = []
    const result = agent.compact({
      summarize: (messages) => {
        summarised.push(messages)
        return gate
      },
    })
    expect(agent.status).toBe('running')
    expect(agent.acceptsNextStep).toBe(true)
    agent.steer('steer-during')
    agent.inject('fact-during')
    agent.followup('next-prompt')
    gate.next('S')
    gate.complete()
    expect(await result).toMatchObject({ kind: 'compacted' })
    await agent.whenIdle()
    expect(texts(summarised[0] as readonly Message[])).toEqual(['user:p1', 'assistant:re:p1'])
    const messages = texts(agent.session.messages())
    expect(messages).toEqual([
      'user:S',
      'user:p2',
      'assistant:re:p2',
      'user:steer-during',
      'user:fact-during',
      'user:next-prompt',
      'assistant:re:next-prompt',
    ])
  })

  it('R75: cancel() aborts it: nothing is appended, its signal aborts, and without keepInbox what waits is discarded', async () => {
    const agent = await withTurns(2)
    let signal: AbortSignal | undefined
    const events = recorded(agent)
    const before = agent.session.events.length
    const result = agent.compact({
      summarize: (_m, ctx) => {
        signal = ctx.signal
        return NEVER
      },
    })
    const id = agent.followup('waiting')
    agent.cancel({ kind: 'user' })
    expect(await result).toEqual({ kind: 'aborted' })
    await agent.whenIdle()
    expect(signal?.aborted).toBe(true)
    expect(agent.session.events.length).toBe(before)
    expect(await agent.outcome(id)).toMatchObject({ kind: 'discarded', reason: 'cancel' })
    expect(events.map(label)).toContain('compaction/end(aborted)')
  })

  it('R75: cancel({keepInbox}) aborts it and the queued prompt runs next', async () => {
    const agent = await withTurns(2)
    const result = agent.compact({ summarize: () => NEVER })
    const id = agent.followup('waiting')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    expect(await result).toEqual({ kind: 'aborted' })
    await agent.whenIdle()
    expect(await agent.outcome(id)).toMatchObject({ kind: 'delivered' })
  })

  it.each([
    [
      'throws a symbol',
      () => {
        throw Symbol('no')
      },
    ],
    ['errors', () => Promise.reject(new Error('down'))],
    ['returns an empty string', () => ''],
    ['returns no value at all', () => []],
    ['returns a non-text block', () => [[{ type: 'image', data: 'x' }]] as never],
    ['returns a number', () => [42] as never],
  ])(
    'R75: a summariser that %s appends nothing, publishes agent/error, and the queue goes on',
    async (_name, summarize) => {
      const agent = await withTurns(2)
      const events = recorded(agent)
      const before = agent.session.events.length
      const result = agent.compact({ summarize: summarize as Summarizer })
      const id = agent.followup('after')
      const ended = await result
      expect(ended.kind).toBe('error')
      await agent.whenIdle()
      expect(await agent.outcome(id)).toMatchObject({ kind: 'delivered' })
      expect(agent.session.events.slice(before).map((e) => e.type)).not.toContain('compaction')
      expect(events.map(label)).toContain('error(2.0)')
    },
  )

  it('R75: a summary that is not text is a typed error that says what to return', async () => {
    const agent = await withTurns(2)
    const result = await agent.compact({ summarize: () => [[{ type: 'image' }]] as never })
    expect(result.kind === 'error' && result.error).toBeInstanceOf(InvalidInputError)
    expect(String(result.kind === 'error' && (result.error as Error).message)).toMatch(/text block/)
  })

  it('R74: bad options throw InvalidInputError and change nothing', async () => {
    const agent = await withTurns(2)
    const before = agent.session.events.length
    expect(() => agent.compact({ keepLastTurns: -1 })).toThrow(InvalidInputError)
    expect(() => agent.compact({ keepLastTurns: 1.5 })).toThrow(InvalidInputError)
    expect(() => agent.compact({ summarize: 'x' as never })).toThrow(InvalidInputError)
    expect(() => agent.compact({ whenInputTokensExceed: 5 } as never)).toThrow(InvalidInputError)
    expect(() => agent.compact(null as never)).toThrow(InvalidInputError)
    expect(agent.status).toBe('idle')
    expect(agent.session.events.length).toBe(before)
  })

  it('R75: dispose() aborts a running compaction', async () => {
    const agent = await withTurns(2)
    const result = agent.compact({ summarize: () => NEVER })
    await agent.dispose()
    expect(await result).toEqual({ kind: 'aborted' })
  })
})

describe('R76: automatic compaction', () => {
  it('R76: after a turn whose last request passed the threshold, it compacts before the next admission', async () => {
    const model = (req: ModelRequest): ModelEvent[] =>
      req.step === 0
        ? [{ type: 'text', text: 'auto summary' }]
        : [
            { type: 'text', text: `re:${lastUserText(req)}` },
            {
              type: 'finish',
              reason: 'stop',
              usage: { inputTokens: lastUserText(req) === 'p2' ? 300 : 100, outputTokens: 1 },
            },
          ]
    const agent = createAgent({ model, compaction: { whenInputTokensExceed: 250, keepLastTurns: 1 } })
    const events = recorded(agent)
    agent.followup('p1')
    agent.followup('p2') // its request reports 300 input tokens: a compaction follows this turn
    agent.followup('p3')
    await agent.whenIdle()
    const order = events.map(label).filter((l) => /compaction|settled/.test(l))
    expect(order).toEqual([
      'settled(1,completed)',
      'settled(2,completed)',
      'compaction/start',
      'compaction/end(compacted)',
      'settled(3,completed)',
    ])
    expect(texts(agent.session.messages())).toEqual([
      'user:auto summary',
      'user:p2',
      'assistant:re:p2',
      'user:p3',
      'assistant:re:p3',
    ])
  })

  it('R76: a bad compaction option is an InvalidInputError from createAgent', () => {
    expect(() => createAgent({ model: echo(), compaction: { whenInputTokensExceed: 0 } })).toThrow(
      InvalidInputError,
    )
    expect(() => createAgent({ model: echo(), compaction: { keepLastTurns: -2 } })).toThrow(InvalidInputError)
  })
})
