/**
 * R79: the history events (`compaction`, `rollback`, `fork`) on the timeline and in `toMarbles`,
 * and the marks of a cut step (R68) and of a cancelled call (R71). The session log is made by
 * real agents (test/support/historyLog.ts); the compaction in it is written as R74 writes one.
 */
import { filter, firstValueFrom } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { createAgent, type SessionEvent } from '../../src/index.js'
import { label, scriptedModel } from '../../src/testing.js'
import {
  layoutTimeline,
  record,
  recordFromSession,
  renderTimeline,
  type TimelineRecord,
  toMarbles,
} from '../../src/timeline.js'
import { historyLog } from '../support/historyLog.js'
import { rmCall, rmTool } from '../support/timelineRuns.js'

let events: readonly SessionEvent[] = []
let from = ''
let rec: TimelineRecord
beforeAll(async () => {
  ;({ events, from } = await historyLog())
  rec = recordFromSession(events)
})

type Drawn = { lane: string; cls: string; text: string; from: number; to: number }
const shapesOf = (r: TimelineRecord, kind: 'bar' | 'mark', lane: string): Drawn[] =>
  layoutTimeline(r).shapes.flatMap((s) =>
    s.kind === kind && s.lane === lane
      ? [
          {
            lane: s.lane,
            cls: s.cls,
            text: s.text,
            from: s.kind === 'bar' ? s.from : s.at,
            to: s.kind === 'bar' ? s.to : s.at,
          },
        ]
      : [],
  )
const seqAt = (r: TimelineRecord, at: number) => {
  const entry = r.entries[at]
  return entry?.stream === 'transcript' ? entry.event.seq : undefined
}
const seqOf = (type: SessionEvent['type']) => events.find((e) => e.type === type)!.seq

describe('R79: the history lane', () => {
  it('R79: a bar per history event over what it acted on, with an arrow to its own mark', () => {
    const bars = shapesOf(rec, 'bar', 'history')
    expect(bars.map((b) => `${b.text} [${b.cls}]`)).toEqual([
      `copied from ${from} [fork]`,
      'compacted 14 messages [compaction]',
      'undid turn 6 [rollback]',
    ])
    const [fork, compaction, rollback] = bars.map((b) => [seqAt(rec, b.from), seqAt(rec, b.to)])
    // The fork copied everything before it; the summary replaced the messages before turn 5's
    // start (the first is `one`, seq 2, the last turn 4's answer); the rollback undid turn 6.
    expect(fork).toEqual([1, seqOf('fork') - 1])
    const turn5 = events.find((e) => e.type === 'turn/start' && e.data.turn === 5)!.seq
    const lastAnswer = events.filter((e) => e.type === 'assistant/message' && e.seq < turn5).at(-1)!.seq
    expect(compaction).toEqual([2, lastAnswer])
    const turn6 = events.filter((e) => e.type === 'turn/start' || e.type === 'turn/end').slice(-2)
    expect(rollback).toEqual(turn6.map((e) => e.seq))
    // Each bar's arrow ends at its event's own mark.
    const layout = layoutTimeline(rec)
    const arrows = layout.shapes.flatMap((s) => (s.kind === 'link' ? [seqAt(rec, s.to.at)] : []))
    expect(arrows).toEqual([seqOf('fork'), seqOf('compaction'), seqOf('rollback')])
    // The turn the rollback undid is drawn faded; the others are not.
    const turns = shapesOf(rec, 'bar', 'turns')
    expect(turns.filter((t) => t.cls.includes('rolled-back')).map((t) => t.text)).toEqual([
      'turn 6 (completed)',
    ])
  })

  it('R79: every durable event has a transcript mark that says what it is; a history event says what it did', () => {
    const marks = shapesOf(rec, 'mark', 'transcript')
    expect(marks).toHaveLength(events.length)
    marks.forEach((mark, i) => {
      expect(mark.text.startsWith(label(events[i]!))).toBe(true)
      expect(mark.cls).toContain(`durable ${events[i]!.type.replace('/', '-')}`)
    })
    const said = (type: string) => marks.find((m) => m.cls === `durable ${type}`)?.text
    const turn5 = events.find((e) => e.type === 'turn/start' && e.data.turn === 5)!.seq
    expect(said('compaction')).toBe(
      `compaction(${turn5}): summary replaced 14 messages (seq 2–38); kept 2 messages after them`,
    )
    // Back to the end of turn 5, before the compaction: the summary goes and what it replaced comes back.
    expect(said('rollback')).toBe(
      'rollback(5): undid turn 6: 3 messages left the conversation (seq 48–52), 14 that a compaction had replaced came back',
    )
    expect(said('fork')).toBe(
      `fork(4): forked from session ${from} at the end of turn 4: the 40 events before are its copy`,
    )
    const types = new Set(events.map((e) => e.type))
    for (const type of ['compaction', 'rollback', 'fork', 'approval/request', 'approval/decision'])
      expect(types.has(type as SessionEvent['type'])).toBe(true)
  })

  it('R79: the page draws the lane and the summary; a log without history events has no history lane', () => {
    const html = renderTimeline(rec)
    expect(html).toContain('data-lane="history"')
    expect(html).toContain('class="bar compaction"')
    expect(html).toContain('class="bar turn rolled-back"')
    const layout = layoutTimeline(rec)
    expect(JSON.stringify(layout.infos)).toContain('We said one, were cut short')
    const plain = recordFromSession(events.slice(0, seqOf('fork') - 1))
    expect(layoutTimeline(plain).rows.history).toBe(0)
    expect(renderTimeline(plain)).not.toContain('data-lane="history"')
  })

  it('R79: toMarbles gives the history events a line of their own (pinned)', () => {
    const marbles = toMarbles(rec)
    expect(marbles.history).toBe('K-R-1')
    expect(marbles.approvals).toBe('C-D')
    const { K, R, C, D } = marbles.values
    expect({ K, R, one: marbles.values['1'], C, D }).toEqual({
      K: 'fork(4)',
      R: 'compaction(42)',
      one: 'rollback(5)',
      C: 'approval/request(rm)',
      D: 'approval/decision(approved)',
    })
    expect(marbles.text).toContain("\napprovals:  'C-D'\nhistory:    'K-R-1'\nvalues:")
    expect(toMarbles(recordFromSession(events.slice(0, 10))).text).not.toContain('history:')
  })

  it('R77, R79: a rollback recorded live on a test scheduler is on its frame of the history line', () => {
    const scheduler = new TestScheduler((a, e) => expect(a).toStrictEqual(e))
    let recording: ReturnType<typeof record> | undefined
    scheduler.run(({ hot }) => {
      const agent = createAgent({ model: scriptedModel(['a', 'b']), scheduler })
      recording = record(agent, { now: () => scheduler.now() })
      const calls = {
        f: () => agent.followup('one'),
        g: () => agent.followup('two'),
        r: () => agent.rollback(1),
      }
      hot('-f-g---r', calls).subscribe((call) => call())
    })
    const live = recording!.record()
    const marbles = toMarbles(live)
    expect(marbles.history).toBe('-------R')
    expect(marbles.values.R).toBe('rollback(1)')
    expect(shapesOf(live, 'bar', 'history').map((b) => b.text)).toEqual(['undid turn 2'])
  })
})

describe('R68, R71: a cut step and a cancelled call', () => {
  it('R68: the step an interrupting steer cut is a red-edged bar marked cut; its message and step end are cut marks', () => {
    expect(shapesOf(rec, 'bar', 'steps').filter((s) => s.cls !== 'step')).toEqual([
      expect.objectContaining({ cls: 'step cut', text: '2.1 cut' }),
    ])
    const cut = shapesOf(rec, 'mark', 'transcript').filter((m) => m.cls.endsWith(' cut'))
    expect(cut.map((m) => m.text)).toEqual(['assistant(Once ,cut)', 'step/end(2.1,cut)'])
  })

  it('R71: a cancelled call is a grey, red-edged bar named cancelled; its result is a cancelled mark', () => {
    expect(shapesOf(rec, 'bar', 'tools').map((b) => `${b.text} [${b.cls}]`)).toEqual([
      'wait (cancelled) [tool error cancelled]',
      'rm [tool]',
    ])
    const cancelled = shapesOf(rec, 'mark', 'transcript').filter((m) => m.cls.endsWith(' cancelled'))
    expect(cancelled.map((m) => m.text)).toEqual(['tool/result(c-wait,CANCELLED)'])
  })

  it('R71: a call cancelled while it waited for approval ends its approval bar as cancelled, not denied', async () => {
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [rmCall('c1', 'a')] }, 'ok']),
      tools: [rmTool],
    })
    const recording = record(agent)
    const paused = firstValueFrom(agent.status$.pipe(filter((s) => s === 'paused')))
    agent.followup('go')
    await paused
    agent.cancelToolCall('c1')
    await agent.whenIdle()
    await agent.dispose()
    const approvals = shapesOf(recording.record(), 'bar', 'approvals')
    expect(approvals.map((b) => `${b.text.replace(/ \(.*\)$/, '')} [${b.cls}]`)).toEqual([
      'rm: cancelled [approval aborted]',
    ])
  })
})
