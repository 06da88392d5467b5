/**
 * What `serve` bounds: a command body is at most 1 MiB (413 past it) and must arrive within its
 * deadline (408 after it), and no response can be framed by another site (`X-Frame-Options` and
 * CSP `frame-ancestors` on every one). Real HTTP on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Agent, createAgent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { MAX_COMMAND_BODY_BYTES } from '../../src/web/readCommandBody.js'
import { type Served, serveAgent } from '../../src/web/server.js'
import { call, openRequest, type RawReply } from '../support/rawHttp.js'

let agent: Agent
let served: Served
let slow: Served
beforeAll(async () => {
  agent = createAgent({ model: scriptedModel([{ hang: true }]) })
  served = await serveAgent(agent)
  // A short deadline, so that the test waits for the 408 and not for the default's 30 s.
  slow = await serveAgent(agent, { limits: { bodyTimeoutMs: 200 } })
}, 60_000)
afterAll(async () => {
  await served.close()
  await slow.close()
  await agent.dispose()
})

const json = { 'content-type': 'application/json' }
const MiB = 1 << 20

describe('steerable serve: command bodies', () => {
  it('a body of 1 MiB is taken; one that declares more is answered 413 before it is read', async () => {
    expect(MAX_COMMAND_BODY_BYTES).toBe(MiB)
    const body = JSON.stringify({ text: 'x'.repeat(MiB - 11) })
    expect(Buffer.byteLength(body)).toBe(MiB)
    const taken = await call(`${served.url}api/followup`, { method: 'POST', headers: json, body })
    expect(taken.status).toBe(200)
    const before = { inbox: agent.inbox, events: agent.session.events.length }
    // The body is never sent: the answer comes from the declared length alone.
    const declared = openRequest(`${served.url}api/followup`, {
      method: 'POST',
      headers: { ...json, 'content-length': String(MiB + 1) },
    })
    const refused = await declared.reply
    expect(refused.status).toBe(413)
    expect(JSON.parse(refused.body).error).toMatch(/at most 1048576 bytes/)
    expect({ inbox: agent.inbox, events: agent.session.events.length }).toStrictEqual(before)
  }, 60_000)

  it('a body sent in pieces is answered 413 once it passes 1 MiB, without waiting for its end', async () => {
    const open = openRequest(`${served.url}api/followup`, { method: 'POST', headers: json })
    open.write('{"text":"')
    open.write('x'.repeat(MiB))
    const refused = await open.reply
    expect(refused.status).toBe(413)
    expect(refused.headers.connection).toBe('close')
  }, 60_000)

  it('a body that does not arrive within the deadline is answered 408', async () => {
    const open = openRequest(`${slow.url}api/followup`, { method: 'POST', headers: json })
    open.write('{"text":')
    const late = await open.reply
    expect(late.status).toBe(408)
    expect(JSON.parse(late.body).error).toMatch(/within 200 ms/)
  }, 60_000)
})

describe('steerable serve: framing', () => {
  const framed = (reply: RawReply) => {
    expect(reply.headers['x-frame-options']).toBe('DENY')
    expect(reply.headers['content-security-policy']).toContain("frame-ancestors 'none'")
  }

  it('every response forbids framing: page, API, errors and refusals', async () => {
    const guarded = await serveAgent(agent, { token: 's3cret' })
    try {
      const replies = [
        await call(served.url),
        await call(`${served.url}api/cancel`, { method: 'POST', headers: json, body: '{}' }),
        await call(`${served.url}api/steer`, { method: 'POST', headers: json, body: '{}' }),
        await call(`${served.url}api/steer`, { method: 'POST', type: 'text/plain', body: '{}' }),
        await call(`${served.url}nowhere`),
        await call(served.url, { path: '//' }),
        await call(served.url, { host: 'evil.example' }),
        await call(guarded.url),
      ]
      expect(replies.map((reply) => reply.status)).toStrictEqual([200, 200, 400, 415, 404, 400, 403, 401])
      for (const reply of replies) framed(reply)
    } finally {
      await guarded.close()
    }
  }, 60_000)

  it('the event stream forbids framing too', async () => {
    const stream = openRequest(`${served.url}events`)
    stream.end()
    // Only the head matters: the stream never ends while the server runs.
    const { status, headers } = await stream.head
    stream.abort()
    expect(status).toBe(200)
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
  }, 60_000)
})
