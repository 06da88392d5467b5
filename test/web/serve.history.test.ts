/**
 * R79 on `serve`: the event stream carries the history events (`compaction`, `rollback`, `fork`)
 * like any other durable event, and the chat says what each did to the conversation.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type Agent, createAgent, type SessionEvent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { HistoryFacts } from '../../src/timeline/historyFacts.js'
import type { TimelineEntry, TimelineRecord } from '../../src/timeline.js'
import { chatLine } from '../../src/web/app/renderChat.js'
import { type Served, serveAgent } from '../../src/web/server.js'
import { historyLog, SUMMARY } from '../support/historyLog.js'
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

/** The `snapshot` and `entry` frames of a new connection to `/events`; `until` waits for one. */
const listen = () => {
  const source = new NodeEventSource(`${served!.url}events`)
  sources.push(source)
  let record: TimelineRecord | undefined
  const entries: TimelineEntry[] = []
  const waiting = new Set<() => void>()
  const wake = () => {
    for (const check of [...waiting]) check()
  }
  source.addEventListener('snapshot', (event) => {
    record = JSON.parse(String(event.data)).record
    wake()
  })
  source.addEventListener('entry', (event) => {
    entries.push(JSON.parse(String(event.data)))
    wake()
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
  return { snapshot: () => record, entries, until }
}

const durable = (entries: readonly TimelineEntry[]) =>
  entries.flatMap((e) => (e.stream === 'transcript' ? [e.event] : []))

describe('R79: history on the serve page', () => {
  it('R79: the snapshot holds the fork, the compaction and the rollback; a rollback made while a page listens comes as an entry', async () => {
    const { events } = await historyLog()
    agent = createAgent({ model: scriptedModel(['re:seven']), history: events })
    served = await serveAgent(agent)
    const page = listen()
    await page.until(() => page.snapshot() !== undefined)
    const types = durable(page.snapshot()!.entries).map((e) => e.type)
    expect(types.filter((t) => t === 'fork' || t === 'compaction' || t === 'rollback')).toEqual([
      'fork',
      'compaction',
      'rollback',
    ])
    expect(types).toHaveLength(events.length)

    const sent = await call(`${served.url}api/followup`, {
      method: 'POST',
      type: 'application/json',
      body: '{"text":"seven"}',
    })
    expect(sent.status).toBe(200)
    await agent.whenIdle()
    agent.rollback(1)
    await page.until(() => durable(page.entries).some((e) => e.type === 'rollback'))
    const rollback = durable(page.entries).find((e) => e.type === 'rollback')
    // Turn 6 was already undone: the turns the messages hold are 1–5 and 7, so one back is 5.
    expect(rollback?.data).toEqual({ toTurn: 5 })
  }, 60_000)

  it('R79: the chat says how many messages a compaction replaced and keeps its summary; which turns a rollback undid; where a fork came from', async () => {
    const { events, from } = await historyLog()
    const facts = new HistoryFacts()
    const lines = events.flatMap((e: SessionEvent) => {
      const line = chatLine(e, facts.see(e))
      return line && ['fork', 'compaction', 'rollback'].includes(e.type) ? [line] : []
    })
    expect(lines).toEqual([
      { who: 'forked', text: `from session ${from} at the end of turn 4` },
      {
        who: 'compacted',
        text: '14 earlier messages (seq 2–38) replaced by a summary; 2 messages after them kept',
        detail: SUMMARY,
      },
      {
        who: 'rolled back',
        text: 'turn 6 undone (back to the end of turn 5); 14 messages a compaction had replaced came back',
      },
    ])
    // Without what it did (a caller that keeps no facts), a history event is not a chat line.
    expect(chatLine(events.find((e) => e.type === 'compaction')!)).toBeUndefined()
  }, 60_000)
})
