/**
 * R67 on `steerable serve`, over real HTTP on 127.0.0.1: the event stream carries the calls that
 * wait for a decision (`approvals`), and `POST /api/approve` and `/api/deny` decide them. A bad
 * body is answered 400, a call that is not pending 409, each with a message, and changes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { PendingApproval } from '../../src/contracts/approvals.js'
import { type Agent, createAgent, defineTool } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
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

const shellCall = (id: string, cmd: string) => ({ id, name: 'shell', arguments: JSON.stringify({ cmd }) })

/** An agent whose `shell` tool needs approval; the model calls it once per turn. */
const approvingAgent = () => {
  const ran: string[] = []
  const shell = defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters: z.object({ cmd: z.string() }),
    needsApproval: true,
    execute: ({ cmd }) => {
      ran.push(cmd)
      return `ran ${cmd}`
    },
  })
  const model = scriptedModel([
    { toolCalls: [shellCall('c1', 'rm a')] },
    'done',
    { toolCalls: [shellCall('c2', 'rm b')] },
    'done',
  ])
  return { agent: createAgent({ model, tools: [shell] }), ran }
}

const post = (command: string, body: unknown, headers: Record<string, string> = {}) =>
  call(`${served!.url}api/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  }).then((reply) => ({ status: reply.status, body: JSON.parse(reply.body) as { error?: string } }))

/** The `approvals` frames of a new connection to `/events`; `next` waits for one that `matches`. */
const listenApprovals = () => {
  const source = new NodeEventSource(`${served!.url}events`)
  sources.push(source)
  const frames: PendingApproval[][] = []
  const waiting = new Set<() => void>()
  source.addEventListener('approvals', (event) => {
    frames.push(JSON.parse(String(event.data)) as PendingApproval[])
    for (const check of [...waiting]) check()
  })
  const next = (matches: (list: PendingApproval[]) => boolean) =>
    new Promise<PendingApproval[]>((resolve) => {
      const check = () => {
        const last = frames[frames.length - 1]
        if (last === undefined || !matches(last)) return
        waiting.delete(check)
        resolve(last)
      }
      waiting.add(check)
      check()
    })
  return { frames, next }
}

const ids = (list: readonly PendingApproval[]) => list.map((a) => a.callId)
const decisions = (a: Agent) =>
  a.session.events.flatMap((e) => (e.type === 'approval/decision' ? [e.data] : []))

describe('steerable serve: approvals', () => {
  it('R61, R67: the event stream lists the pending call; deny with a reason, then approve, each from a POST', async () => {
    const made = approvingAgent()
    agent = made.agent
    served = await serveAgent(agent)
    const { next } = listenApprovals()
    expect(await next(() => true)).toEqual([])
    expect((await post('followup', { text: 'go' })).status).toBe(200)
    const [pending] = await next((list) => list.length === 1)
    expect(pending).toMatchObject({
      turn: 1,
      step: 1,
      callId: 'c1',
      name: 'shell',
      arguments: '{"cmd":"rm a"}',
    })
    expect(await post('deny', { callId: 'c1', reason: 'too risky' })).toEqual({ status: 200, body: {} })
    await next((list) => list.length === 0)
    await agent.whenIdle()
    expect((await post('followup', { text: 'again' })).status).toBe(200)
    await next((list) => ids(list).join() === 'c2')
    // A blank reason box is no reason.
    expect(await post('approve', { callId: 'c2', reason: '  ' })).toEqual({ status: 200, body: {} })
    await next((list) => list.length === 0)
    await agent.whenIdle()
    expect(decisions(agent).map(({ callId, decision, reason }) => ({ callId, decision, reason }))).toEqual([
      { callId: 'c1', decision: 'denied', reason: 'too risky' },
      { callId: 'c2', decision: 'approved', reason: undefined },
    ])
    expect(made.ran).toEqual(['rm b'])
  }, 60_000)

  it('a bad body is answered 400, a call that is not pending 409, each with a clear message; neither decides anything', async () => {
    agent = approvingAgent().agent
    served = await serveAgent(agent)
    const { next } = listenApprovals()
    expect((await post('followup', { text: 'go' })).status).toBe(200)
    await next((list) => list.length === 1)
    const refusals = [
      ['approve', {}, 400, /^POST \/api\/approve: callId: expected the id of a pending tool call/],
      ['approve', { callId: 7 }, 400, /callId: expected/],
      ['deny', { callId: '' }, 400, /callId: expected/],
      ['deny', { callId: 'c1', reason: 5 }, 400, /reason: expected a string, or no reason/],
      // Every bad field at once.
      ['deny', { reason: 5 }, 400, /callId: expected .*; reason: expected a string/],
      ['approve', { callId: 'nope' }, 409, /no approval is pending for tool call "nope"/],
      ['deny', { callId: 'nope', reason: 'x' }, 409, /no approval is pending for tool call "nope"/],
    ] as const
    for (const [command, body, status, message] of refusals) {
      const reply = await post(command, body)
      expect({ command, body, status: reply.status }).toEqual({ command, body, status })
      expect(reply.body.error).toMatch(message)
    }
    expect(ids(agent.approvals)).toEqual(['c1'])
    expect(decisions(agent)).toEqual([])
    expect(agent.status).toBe('paused')
    // Decided once; the second decision of the same call finds it no longer pending.
    expect((await post('approve', { callId: 'c1' })).status).toBe(200)
    const again = await post('deny', { callId: 'c1' })
    expect(again.status).toBe(409)
    expect(again.body.error).toMatch(/no approval is pending for tool call "c1"/)
    expect(decisions(agent).map((d) => d.decision)).toEqual(['approved'])
  }, 60_000)

  it('with a token, a decision without it is answered 401 and decides nothing', async () => {
    agent = approvingAgent().agent
    served = await serveAgent(agent, { token: 's3cret' })
    agent.followup('go')
    const source = new NodeEventSource(`${served.url}events?token=s3cret`)
    sources.push(source)
    await new Promise<void>((resolve) => {
      source.addEventListener('approvals', (event) => {
        if (String(event.data).includes('"c1"')) resolve()
      })
    })
    expect((await post('approve', { callId: 'c1' })).status).toBe(401)
    expect(decisions(agent)).toEqual([])
    expect((await post('approve', { callId: 'c1' }, { authorization: 'Bearer s3cret' })).status).toBe(200)
    expect(decisions(agent).map((d) => d.decision)).toEqual(['approved'])
  }, 60_000)
})
