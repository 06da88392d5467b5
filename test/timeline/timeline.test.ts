import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { createAgent, fileStore } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { readSessionFile, record, renderTimeline, toMarbles } from '../../src/timeline.js'
import { cancelScenarioRecord } from '../support/timelineRuns.js'

// The README's "Cancel" diagram (marbles/cancel.spec.ts), as the README shows it.
const README_CALLS = '-f-------s-c-q-x'
const README_TIMELINE = '-(erdtup)S---Q-(CXEnUxi)'
const README_VALUES = {
  e: 'enqueue(go,queued)',
  r: 'running',
  d: 'dequeue(go)',
  t: 'turn/start(1)',
  u: 'user(go)',
  p: 'step/start(1.1)',
  S: 'enqueue(s,steering)',
  Q: 'enqueue(q,queued)',
  C: 'cancel(user)',
  X: 'discard(q,s)',
  E: 'step/end(1.1)',
  n: 'turn/end(1,aborted)',
  U: 'user(ctx)',
  x: 'settled(1,aborted)',
  i: 'idle',
}

const parse = (diagram: string, values: Record<string, string>) =>
  TestScheduler.parseMarbles(diagram, values, undefined, false, true)

describe('timeline: record and toMarbles', () => {
  it('toMarbles of a run recorded on the test scheduler gives back the README cancel diagram', () => {
    const scheduler = new TestScheduler((a, e) => expect(a).toStrictEqual(e))
    let rec: ReturnType<typeof record> | undefined
    scheduler.run(({ hot }) => {
      const agent = createAgent({ model: scriptedModel([{ hang: true }]), scheduler })
      rec = record(agent, { now: () => scheduler.now() })
      const calls = {
        f: () => agent.followup('go'),
        s: () => agent.steer('s'),
        c: () => agent.inject('ctx'),
        q: () => agent.followup('q'),
        x: () => agent.cancel({ kind: 'user' }),
      }
      hot(README_CALLS, calls).subscribe((call) => call())
    })
    const marbles = toMarbles(rec!.record())
    expect(parse(marbles.timeline, { ...marbles.values })).toStrictEqual(
      parse(README_TIMELINE, README_VALUES),
    )
    expect(marbles.text).toContain(`timeline:   '${marbles.timeline}'`)
  })

  it('a live record is plain JSON: it survives JSON.stringify and parse unchanged', async () => {
    const rec = await cancelScenarioRecord()
    expect(JSON.parse(JSON.stringify(rec))).toStrictEqual(rec)
    expect(rec.entries.map((e) => e.seq)).toStrictEqual(rec.entries.map((_, i) => i + 1))
    expect(rec.entries.every((e) => typeof e.t === 'number')).toBe(true)
  })

  it('an error value from outside code is recorded as {name, message}', async () => {
    const agent = createAgent({ model: scriptedModel([{ error: new Error('boom') }]) })
    const rec = record(agent)
    agent.followup('hi')
    await agent.whenIdle()
    await agent.dispose()
    const settled = rec
      .record()
      .entries.find((e) => e.stream === 'events' && e.event.type === 'agent/settled')
    expect(JSON.stringify(settled)).toContain('"message":"boom"')
  })
})

describe('timeline: renderTimeline', () => {
  it('draws each lane, one bar per message and a shaded acceptance window, with no network', async () => {
    const html = renderTimeline(await cancelScenarioRecord())
    for (const lane of ['inbox', 'turns', 'steps', 'tools', 'transcript', 'status'])
      expect(html).toContain(`data-lane="${lane}"`)
    // One bar per message (go, s, q) in each of the two axes (event order, wall time).
    expect(html.match(/class="bar msg /g)?.length).toBe(6)
    expect(html).toContain('class="window"')
    expect(html).not.toMatch(/(src|href)="https?:/)
  })

  it('escapes user text: a message with <script> is shown as text, never as markup', async () => {
    const html = renderTimeline(
      await cancelScenarioRecord('<script>alert(1)</script><img src=x onerror=alert(2)>'),
    )
    expect(html).not.toContain('<script>alert(1)')
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('&#60;script&#62;alert(1)')
  })

  it('a file store session log alone renders, with what it holds (read without opening the store)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'timeline-')), 'session.jsonl')
    const agent = createAgent({ model: scriptedModel(['hello']), store: fileStore(path) })
    const hi = agent.followup('hi')
    agent.send('later', { target: 'next-turn', wakeup: false })
    await agent.whenIdle()
    await agent.dispose()
    writeFileSync(path, '{"torn', { flag: 'a' })
    const { record: rec, warnings } = readSessionFile(path)
    expect(rec.source).toBe('session')
    expect(warnings).toHaveLength(1)
    // The journal's parked item (discarded by dispose), not the prompt the transcript shows delivered.
    const journal = rec.entries.filter((e) => e.stream === 'journal').map((e) => JSON.stringify(e.event))
    expect(journal[0]).toContain('"later"')
    expect(journal.filter((line) => line.includes(hi))).toStrictEqual([])
    const html = renderTimeline(rec)
    expect(html).toContain('turn 1 (completed)')
    expect(html).toContain('later')
  })
})
