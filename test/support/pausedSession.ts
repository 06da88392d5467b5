import { expect } from 'vitest'
import { z } from 'zod'
import { createAgent, defineTool, fileStore, inboxConservation, type ModelEvent } from '../../src/index.js'

type Flushed = {
  readonly approvals: readonly string[]
  readonly queue: readonly string[]
  readonly outbox: readonly string[]
}

const startsWith = (list: readonly string[], prefix: readonly string[]) =>
  prefix.every((id, i) => list[i] === id)

/**
 * Opens the paused session a crash-test child left in `log` (test/support/children/
 * crashPauseChild.ts), checks it holds at least what was flushed, approves `c1` and denies `c3`,
 * and checks the end: each call has its one `tool/call` and `tool/result` in model order, only
 * the approved call ran, and every send that waited is delivered exactly once (R51, R65, V9).
 * Returns how many sends waited.
 */
export const completePausedSession = async (log: string, flushed: Flushed): Promise<number> => {
  const ran: string[] = []
  const parameters = z.object({ cmd: z.string() })
  const tools = [
    defineTool({
      name: 'shell',
      description: 'Runs a command.',
      parameters,
      needsApproval: true,
      execute: ({ cmd }) => {
        ran.push(cmd)
        return `ran ${cmd}`
      },
    }),
    defineTool({
      name: 'read',
      description: 'Reads a file.',
      parameters,
      execute: ({ cmd }) => `read ${cmd}`,
    }),
  ]
  const text: ModelEvent[] = [
    { type: 'text', text: 'ok' },
    { type: 'finish', reason: 'stop' },
  ]
  const agent = createAgent({ model: () => text, tools, store: fileStore(log) })
  const broken: unknown[] = []
  agent.events$.pipe(inboxConservation({ initial: agent.inbox })).subscribe({ error: (e) => broken.push(e) })
  expect(agent.status).toBe('paused')
  expect(agent.approvals.map((a) => a.callId)).toStrictEqual(flushed.approvals)
  const queue = agent.inbox.queue.map((i) => i.message.id as string)
  const outbox = agent.inbox.outbox.map((i) => i.message.id as string)
  expect(startsWith(queue, flushed.queue) && startsWith(outbox, flushed.outbox)).toBe(true)

  agent.approve('c1')
  agent.deny('c3', { reason: 'not today' })
  await agent.whenIdle()
  const events = agent.session.events
  expect(events.flatMap((e) => (e.type === 'tool/call' ? [e.data.call.id] : []))).toStrictEqual([
    'c1',
    'c2',
    'c3',
  ])
  const results = events.flatMap((e) => (e.type === 'tool/result' ? [e.data.result] : []))
  expect(results.map((r) => [r.toolCallId, r.code ?? 'ok'])).toStrictEqual([
    ['c1', 'ok'],
    ['c2', 'ok'],
    ['c3', 'DENIED'],
  ])
  expect(JSON.stringify(results[2]?.content)).toContain('not today')
  events.forEach((e, i) => {
    if (e.type === 'tool/call') expect(events[i + 1]?.type).toBe('tool/result')
  })
  expect(ran).toStrictEqual(['make'])
  const delivered = new Map<string, number>()
  for (const e of events)
    if ((e.type === 'user/message' || e.type === 'steering/message') && e.data.id !== undefined)
      delivered.set(e.data.id, (delivered.get(e.data.id) ?? 0) + 1)
  for (const id of [...queue, ...outbox]) expect(delivered.get(id), `${id} delivered`).toBe(1)
  expect(broken).toStrictEqual([])
  await agent.dispose()
  return queue.length + outbox.length
}
