/**
 * The event stream of `serve` (`GET /events`) over real HTTP on 127.0.0.1: what waits for a page
 * that reads nothing is bounded (the page is dropped, and may reconnect), and inbox frames after
 * the first carry what changed, not every waiting message again.
 */
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { InboxSnapshot } from '../../src/contracts/inbox.js'
import { type Agent, createAgent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { applyInboxChanges, type InboxChange } from '../../src/web/inboxChanges.js'
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

const KiB = 1 << 10
const followup = (text: string) =>
  call(`${served!.url}api/followup`, {
    method: 'POST',
    type: 'application/json',
    body: JSON.stringify({ text }),
  }).then((reply) => expect(reply.status).toBe(200))

/** The frames of `types` on a new connection to `/events`, as they come; `until` waits for one. */
const listen = (types: readonly string[]) => {
  const source = new NodeEventSource(`${served!.url}events`)
  sources.push(source)
  const frames: { type: string; data: string }[] = []
  const waiting = new Set<() => void>()
  for (const type of types)
    source.addEventListener(type, (event) => {
      frames.push({ type, data: String(event.data) })
      for (const check of [...waiting]) check()
    })
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!done()) return
        waiting.delete(check)
        resolve()
      }
      waiting.add(check)
      check()
    })
  return { frames, until }
}

describe('steerable serve: the event stream', () => {
  it('R41: after the first inbox frame, each carries what changed, not every waiting message', async () => {
    // The first followup claims the turn, which never answers: the other 19 wait.
    agent = createAgent({ model: scriptedModel([{ hang: true }]) })
    served = await serveAgent(agent)
    const { frames, until } = listen(['inbox', 'inbox-changes'])
    let held: InboxSnapshot = { queue: [], outbox: [] }
    const fold = () => {
      held = { queue: [], outbox: [] }
      for (const { type, data } of frames)
        held =
          type === 'inbox' ? JSON.parse(data) : applyInboxChanges(held, JSON.parse(data) as InboxChange[])
      return held.queue.length === 19
    }
    for (let i = 1; i <= 20; i++) await followup(`${i}: ${'x'.repeat(10 * KiB)}`)
    await until(fold)
    expect(held).toStrictEqual(JSON.parse(JSON.stringify(agent.inbox)))
    // 19 messages of 10 KiB wait; no frame after the first carries more than one of them.
    expect(frames[0]!.type).toBe('inbox')
    for (const frame of frames.slice(1)) expect(frame.data.length).toBeLessThan(12 * KiB)
  }, 60_000)

  it('a page that reads nothing is dropped once 8 MiB wait for it, and a new connection starts from a snapshot', async () => {
    agent = createAgent({ model: scriptedModel(Array.from({ length: 32 }, () => 'ok')) })
    served = await serveAgent(agent)
    const { port } = new URL(served.url)
    const stalled = connect(Number(port), '127.0.0.1')
    stalled.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)
    // Reads nothing: the kernel's buffers fill (a few MiB), then the server's.
    stalled.pause()
    const closed = new Promise<void>((resolve) => stalled.once('close', () => resolve()))
    let received = ''
    stalled.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1')
    })
    // 32 prompts of 512 KiB, each in several frames (its enqueue, inbox, dequeue and message):
    // far more than the 8 MiB bound and what the kernel holds.
    for (let i = 1; i <= 32; i++) {
      await followup(`${i}: ${'x'.repeat(512 * KiB)}`)
      await agent.whenIdle()
    }
    stalled.resume()
    await closed
    const messages = received.split('"type":"user/message"').length - 1
    expect(messages).toBeGreaterThan(0)
    expect(messages).toBeLessThan(32)
    // A new connection starts from the snapshot, which holds all 32.
    const { frames, until } = listen(['snapshot'])
    await until(() => frames.length > 0)
    const record = JSON.parse(frames[0]!.data).record as { entries: { event: { type: string } }[] }
    expect(record.entries.filter((entry) => entry.event.type === 'user/message')).toHaveLength(32)
  }, 120_000)
})
