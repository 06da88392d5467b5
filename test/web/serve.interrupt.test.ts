/**
 * R68 and R71 on `steerable serve`, over real HTTP on 127.0.0.1: `POST /api/steer` with
 * `interrupt: true` cuts the answer being streamed, and `POST /api/cancel-tool` cancels one running
 * call, which the event stream shows starting and ending (R72). A bad body is answered 400 with a
 * message and changes nothing.
 */
import { first, firstValueFrom, Subject } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ModelEvent } from '../../src/contracts/model.js'
import type { SessionEvent } from '../../src/index.js'
import { type Agent, createAgent, defineTool } from '../../src/index.js'
import type { TimelineEntry } from '../../src/timeline/types.js'
import { type Served, serveAgent } from '../../src/web/server.js'
import { NodeEventSource } from '../support/nodeEventSource.js'
import { call } from '../support/rawHttp.js'

let agent: Agent | undefined
let served: Served | undefined
const sources: NodeEventSource[] = []
afterEach(async () => {
  for (const source of sources.splice(0)) source.close()
  await served?.close()
  await agent?.dispose()
})

const text = (t: string): ModelEvent => ({ type: 'text', text: t })
const finish: ModelEvent = { type: 'finish', reason: 'stop' }

const post = (command: string, body: unknown) =>
  call(`${served!.url}api/${command}`, {
    method: 'POST',
    type: 'application/json',
    body: JSON.stringify(body),
  }).then((reply) => ({
    status: reply.status,
    body: JSON.parse(reply.body) as { error?: string; id?: string; cancelled?: boolean },
  }))

/** Each `entry` frame of a new connection to `/events`; `next` waits for one that `matches`. */
const listenEntries = () => {
  const source = new NodeEventSource(`${served!.url}events`)
  sources.push(source)
  const entries: TimelineEntry[] = []
  let snapshot: { now?: unknown } | undefined
  const waiting = new Set<() => void>()
  source.addEventListener('snapshot', (event) => {
    snapshot = JSON.parse(String(event.data))
  })
  source.addEventListener('entry', (event) => {
    entries.push(JSON.parse(String(event.data)) as TimelineEntry)
    for (const check of [...waiting]) check()
  })
  const next = (matches: (entry: TimelineEntry) => boolean) =>
    new Promise<TimelineEntry>((resolve) => {
      const check = () => {
        const found = entries.find(matches)
        if (found === undefined) return
        waiting.delete(check)
        resolve(found)
      }
      waiting.add(check)
      check()
    })
  return { entries, next, snapshot: () => snapshot }
}

/** The first request streams from `stream`, which the test drives; later ones answer `ok`. */
const streamingAgent = (stream: Subject<ModelEvent>) => {
  let n = 0
  return createAgent({ model: () => (++n === 1 ? stream : [text('ok'), finish]) })
}
const stepStarted = (a: Agent) => firstValueFrom(a.transcript$.pipe(first((e) => e.type === 'step/start')))
const delta = (a: Agent, t: string) =>
  firstValueFrom(a.events$.pipe(first((e) => e.type === 'agent/stream/delta' && e.text === t)))
const ofType = <T extends SessionEvent['type']>(a: Agent, type: T) =>
  a.session.events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type)

describe('steerable serve: an interrupting steer', () => {
  it('R68: POST /api/steer {text, interrupt: true} while the model streams cuts the answer where it is; the steer is read next', async () => {
    const stream = new Subject<ModelEvent>()
    agent = streamingAgent(stream)
    served = await serveAgent(agent)
    expect((await post('followup', { text: 'tell me a story' })).status).toBe(200)
    await stepStarted(agent)
    const streamed = delta(agent, 'Once ')
    stream.next(text('Once '))
    await streamed
    const reply = await post('steer', { text: 'stop, be brief', interrupt: true })
    expect(reply.status).toBe(200)
    expect(typeof reply.body.id).toBe('string')
    // Cut at once: the stream is no longer read, whatever it sends after.
    expect(stream.observed).toBe(false)
    await agent.whenIdle()
    expect(ofType(agent, 'assistant/message').map((e) => e.data)).toMatchObject([
      { step: 1, content: [{ type: 'text', text: 'Once ' }], interrupted: true },
      { step: 2, content: [{ type: 'text', text: 'ok' }] },
    ])
    expect(ofType(agent, 'steering/message').map((e) => e.data)).toMatchObject([
      { id: reply.body.id, interrupt: true },
    ])
    expect(ofType(agent, 'step/end').map((e) => e.data.interrupted)).toEqual([true, undefined])
  })

  it('R68: with interrupt false the steer is a plain one: the answer is not cut and the steer waits for the step end', async () => {
    const stream = new Subject<ModelEvent>()
    agent = streamingAgent(stream)
    served = await serveAgent(agent)
    expect((await post('followup', { text: 'tell me a story' })).status).toBe(200)
    await stepStarted(agent)
    stream.next(text('Once '))
    expect((await post('steer', { text: 'be brief', interrupt: false })).status).toBe(200)
    expect(stream.observed).toBe(true)
    expect(agent.inbox.outbox.map((item) => item.placement)).toEqual(['steering'])
    stream.next(text('upon a time.'))
    stream.next(finish)
    await agent.whenIdle()
    expect(ofType(agent, 'assistant/message').map((e) => e.data.interrupted)).toEqual([undefined, undefined])
    expect(ofType(agent, 'steering/message').map((e) => e.data.interrupt)).toEqual([undefined])
  })

  it('R68: while nothing runs, steer {interrupt: true} is a plain steer: it runs a turn as a followup would', async () => {
    agent = createAgent({ model: () => [text('ok'), finish] })
    served = await serveAgent(agent)
    expect((await post('steer', { text: 'hello', interrupt: true })).status).toBe(200)
    await agent.whenIdle()
    expect(ofType(agent, 'turn/end').map((e) => e.data.reason.kind)).toEqual(['completed'])
    expect(ofType(agent, 'assistant/message').map((e) => e.data)).toMatchObject([
      { content: [{ type: 'text', text: 'ok' }] },
    ])
    expect(ofType(agent, 'step/end').map((e) => e.data.interrupted)).toEqual([undefined])
  })

  it('a bad interrupting steer is answered 400 with a message and neither cuts the answer nor stages anything', async () => {
    const stream = new Subject<ModelEvent>()
    agent = streamingAgent(stream)
    served = await serveAgent(agent)
    expect((await post('followup', { text: 'tell me a story' })).status).toBe(200)
    await stepStarted(agent)
    stream.next(text('Once '))
    const refusals = [
      [{ text: 'stop', interrupt: 'yes' }, /^POST \/api\/steer: interrupt: expected true or false/],
      [{ text: 'stop', interrupt: 1 }, /interrupt: expected/],
      [{ text: 'stop', interrupt: null }, /interrupt: expected/],
      [{ text: '  ', interrupt: true }, /text: expected the text to send: a string, not blank/],
      [{ interrupt: true }, /text: expected the text to send/],
      // Every bad field at once.
      [{ interrupt: 'yes' }, /text: expected .*; interrupt: expected true or false/],
    ] as const
    for (const [body, message] of refusals) {
      const reply = await post('steer', body)
      expect({ body, status: reply.status }).toEqual({ body, status: 400 })
      expect(reply.body.error).toMatch(message)
    }
    expect(stream.observed).toBe(true)
    expect(agent.inbox.outbox).toEqual([])
    expect(agent.status).toBe('running')
    stream.next(finish)
    await agent.whenIdle()
    expect(ofType(agent, 'steering/message')).toEqual([])
    expect(ofType(agent, 'assistant/message').map((e) => e.data.interrupted)).toEqual([undefined])
  })
})

describe('steerable serve: cancelling one tool call', () => {
  /** `wait` runs until its signal aborts; the model calls it once, then answers `ok`. */
  const waitingAgent = () => {
    const aborted: unknown[] = []
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until cancelled.',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise<string>((resolve) =>
          ctx.signal.addEventListener('abort', () => {
            aborted.push(ctx.signal.reason)
            resolve('stopped')
          }),
        ),
    })
    let n = 0
    const made = createAgent({
      tools: [wait],
      model: () =>
        ++n === 1
          ? [
              { type: 'tool-call', id: 'c1', name: 'wait', arguments: '{}' },
              { ...finish, reason: 'tool-calls' },
            ]
          : [text('ok'), finish],
    })
    return { agent: made, aborted }
  }

  it('R71, R72: the event stream shows the call start; POST /api/cancel-tool {callId, reason} cancels it; the end and the CANCELLED result follow', async () => {
    const made = waitingAgent()
    agent = made.agent
    served = await serveAgent(agent)
    const { next, snapshot } = listenEntries()
    expect((await post('followup', { text: 'go' })).status).toBe(200)
    const start = await next((e) => e.stream === 'events' && e.event.type === 'agent/tool/start')
    expect(start.event).toMatchObject({
      type: 'agent/tool/start',
      callId: 'c1',
      name: 'wait',
      turn: 1,
      step: 1,
    })
    // The page counts a call's time from its entry's `t` on the server's clock, which the snapshot gives.
    expect(typeof snapshot()?.now).toBe('number')
    expect(typeof start.t).toBe('number')
    expect(await post('cancel-tool', { callId: 'c1', reason: 'too slow' })).toEqual({
      status: 200,
      body: { cancelled: true },
    })
    const end = await next((e) => e.stream === 'events' && e.event.type === 'agent/tool/end')
    expect(end.event).toMatchObject({ callId: 'c1', isError: true, code: 'CANCELLED' })
    await agent.whenIdle()
    expect(made.aborted).toHaveLength(1)
    const [result] = ofType(agent, 'tool/result').map((e) => e.data.result)
    expect(result).toMatchObject({ toolCallId: 'c1', isError: true, code: 'CANCELLED' })
    expect(JSON.stringify(result!.content)).toContain('too slow')
    expect(ofType(agent, 'turn/end').map((e) => e.data.reason.kind)).toEqual(['completed'])
    // Settled: a second cancel cancels nothing.
    expect(await post('cancel-tool', { callId: 'c1' })).toEqual({ status: 200, body: { cancelled: false } })
  })

  it('R71: a bad body is answered 400 and an unknown call {cancelled: false}; neither stops the running call', async () => {
    const made = waitingAgent()
    agent = made.agent
    served = await serveAgent(agent)
    const { next, entries } = listenEntries()
    expect((await post('followup', { text: 'go' })).status).toBe(200)
    await next((e) => e.stream === 'events' && e.event.type === 'agent/tool/start')
    const refusals = [
      [{}, /callId: expected the id of a running tool call/],
      [{ callId: 7 }, /callId: expected/],
      [{ callId: '' }, /callId: expected/],
      [{ callId: 'c1', reason: 5 }, /reason: expected a string/],
    ] as const
    for (const [body, message] of refusals) {
      const reply = await post('cancel-tool', body)
      expect({ body, status: reply.status }).toEqual({ body, status: 400 })
      expect(reply.body.error).toMatch(message)
    }
    expect(await post('cancel-tool', { callId: 'nope' })).toEqual({ status: 200, body: { cancelled: false } })
    expect(made.aborted).toEqual([])
    expect(ofType(agent, 'tool/result')).toEqual([])
    expect(entries.some((e) => e.stream === 'events' && e.event.type === 'agent/tool/end')).toBe(false)
    expect(agent.status).toBe('running')
    // The call still runs, and is still cancellable.
    expect((await post('cancel-tool', { callId: 'c1' })).body).toEqual({ cancelled: true })
    await agent.whenIdle()
    expect(ofType(agent, 'tool/result').map((e) => e.data.result.code)).toEqual(['CANCELLED'])
  })
})
