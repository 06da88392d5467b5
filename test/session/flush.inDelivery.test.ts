/**
 * R50, R52: `session.flush()` called by a subscriber, right after a send it made while the agent was
 * delivering an event, covers that send. The send waits in the trampoline until the delivery
 * returns, and only then is its journal record made: a flush that handed over what was there at
 * the call resolved without it, and a crash after that lost an accepted send whose flush had
 * resolved (the compaction crash test found it).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NEVER } from 'rxjs'
import { afterAll, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src/contracts/events.js'
import { type Agent, type AgentMessageId, createAgent, fileStore, type ModelEvent } from '../../src/index.js'

const root = mkdtempSync(join(tmpdir(), 'steerable-flush-in-delivery-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const answer = (): ModelEvent[] => [
  { type: 'text', text: 'ok' },
  { type: 'finish', reason: 'stop' },
]

/** The ids the journal file holds an `add` record of, as written on disk. */
const journaled = (log: string): string[] =>
  existsSync(`${log}.inbox`)
    ? readFileSync(`${log}.inbox`, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { op: string; message?: { id: string } })
        .flatMap((r) => (r.op === 'add' && r.message ? [r.message.id] : []))
    : []

/** On the first event `when` picks: a `send` and a flush, both inside that delivery. */
const sendAndFlushOn = (agent: Agent, when: (e: AgentEvent) => boolean, send: () => AgentMessageId) =>
  new Promise<{ id: AgentMessageId; flushed: Promise<void> }>((resolve) => {
    const subscription = agent.events$.subscribe((event) => {
      if (!when(event)) return
      subscription.unsubscribe()
      const id = send()
      resolve({ id, flushed: agent.session.flush() })
    })
  })

describe('R52: a flush made inside a delivery covers the sends made before it there', () => {
  it('R50, R52: a followup sent as a turn starts is on disk when the flush resolves', async () => {
    const log = join(root, 'turn.jsonl')
    const agent = createAgent({ model: () => NEVER, store: fileStore(log) })
    const sent = sendAndFlushOn(
      agent,
      (e) => e.type === 'agent/status' && e.status === 'running',
      () => agent.followup('sent while the turn starts'),
    )
    agent.followup('first')
    const { id, flushed } = await sent
    await flushed
    expect(journaled(log)).toContain(id)
    await agent.dispose()
  })

  it('R50, R52, R75: a steer sent as a compaction starts is on disk when the flush resolves', async () => {
    const log = join(root, 'compaction.jsonl')
    const agent = createAgent({ model: answer, store: fileStore(log) })
    agent.followup('q1')
    agent.followup('q2')
    await agent.whenIdle()
    const sent = sendAndFlushOn(
      agent,
      (e) => e.type === 'agent/compaction/start',
      () => agent.steer('sent while the compaction starts'),
    )
    void agent.compact({ summarize: () => NEVER })
    const { id, flushed } = await sent
    await flushed
    expect(journaled(log)).toContain(id)
    await agent.dispose()
  })
})
