/**
 * Pauses on the timeline (R61–R67, R80): `approval/request`, `approval/decision` and `budget/pause`
 * on a lane of their own in `renderTimeline` (drawn only when a record has them) and in
 * `toMarbles`, and the paused stretch on the status lane.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { filter, firstValueFrom } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type Agent, type AgentOptions, createAgent, defineTool, fileStore } from '../../src/index.js'
import { type ScriptedReply, scriptedModel } from '../../src/testing.js'
import {
  layoutTimeline,
  readSessionFile,
  record,
  renderTimeline,
  type TimelineRecord,
  toMarbles,
} from '../../src/timeline.js'
import {
  approvalScenarioRecord,
  cancelScenarioRecord,
  rmTool as rm,
  rmCall,
} from '../support/timelineRuns.js'

const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
})
const echoCall = (id: string) => ({ id, name: 'echo', arguments: '{"text":"x"}' })

const paused = (agent: Agent) => firstValueFrom(agent.status$.pipe(filter((s) => s === 'paused')))

/** Runs `act` on a recorded agent and returns the record once it is idle and disposed. */
const recorded = async (
  script: readonly ScriptedReply[],
  options: Omit<AgentOptions, 'model'>,
  act: (agent: Agent) => Promise<void>,
): Promise<TimelineRecord> => {
  const agent = createAgent({ ...options, model: scriptedModel(script) })
  const recording = record(agent)
  await act(agent)
  await agent.whenIdle()
  await agent.dispose()
  return recording.record()
}

/** The bars of a lane, as `text [cls]`, open ones marked. */
const bars = (rec: TimelineRecord, lane: string) =>
  layoutTimeline(rec).shapes.flatMap((s) =>
    s.kind === 'bar' && s.lane === lane ? [`${s.text} [${s.cls}]${s.open ? ' open' : ''}`] : [],
  )

describe('timeline: the approvals lane', () => {
  it('toMarbles gives the lane its own line, on the frames of the run (a run on the test scheduler)', () => {
    const scheduler = new TestScheduler((a, e) => expect(a).toStrictEqual(e))
    let rec: ReturnType<typeof record> | undefined
    scheduler.run(({ hot }) => {
      const script = [{ toolCalls: [rmCall('c1', 'a'), rmCall('c2', 'b')] }, 'done']
      const agent = createAgent({ model: scriptedModel(script), tools: [rm], scheduler })
      rec = record(agent, { now: () => scheduler.now() })
      const calls = {
        f: () => agent.followup('go'),
        a: () => agent.approve('c1'),
        d: () => agent.deny('c2', { reason: 'no' }),
      }
      hot('-f------a---d', calls).subscribe((call) => call())
    })
    const marbles = toMarbles(rec!.record())
    const { values } = marbles
    const letter = (label: string) => Object.keys(values).find((k) => values[k] === label)
    const [request, approved, denied] = [
      letter('approval/request(rm)'),
      letter('approval/decision(approved)'),
      letter('approval/decision(denied,no)'),
    ]
    // Both requests in frame 1 (a group is as many frames wide as it has characters), then each decision in its frame.
    expect(marbles.approvals).toBe(`-(${request}${request})---${approved}---${denied}`)
    expect(marbles.text).toContain(`\napprovals:  '${marbles.approvals}'\n`)
  })

  it('a bar per call from its request to its decision, green approved and red denied (with the reason); the status lane shows the pause', async () => {
    const rec = await approvalScenarioRecord()
    expect(bars(rec, 'approvals')).toEqual([
      'rm: approved [approval approved]',
      'rm: denied (no) [approval denied]',
    ])
    expect(bars(rec, 'status')).toEqual(['running [running]', 'paused [paused]', 'running [running]'])
    // One after the other on one row: the status lane keeps its second row for the marks.
    const statusRows = layoutTimeline(rec).shapes.flatMap((s) =>
      s.kind === 'bar' && s.lane === 'status' ? [s.row] : [],
    )
    expect(statusRows).toEqual([0, 0, 0])
    const html = renderTimeline(rec)
    expect(html).toContain('data-lane="approvals"')
    expect(html).toContain('class="bar approval denied"')
  })

  it('R64: a call a cancel aborted undecided ends red at its ABORTED result', async () => {
    const rec = await recorded([{ toolCalls: [rmCall('c1', 'a')] }], { tools: [rm] }, async (agent) => {
      const pause = paused(agent)
      agent.followup('go')
      await pause
      agent.cancel({ kind: 'user' })
    })
    expect(bars(rec, 'approvals')).toEqual(['rm? [approval aborted]'])
    const { approvals, values } = toMarbles(rec, { time: 'order' })
    expect(values[approvals]).toBe('approval/request(rm)')
  })

  it('R80: a budget pause is a bar from budget/pause to the step raiseBudget lets begin', async () => {
    const script = [{ toolCalls: [echoCall('a')] }, { toolCalls: [echoCall('b')] }, 'done']
    const budget = { maxRequests: 1, onExceed: 'pause' } as const
    const rec = await recorded(script, { tools: [echo], budget }, async (agent) => {
      const pause = paused(agent)
      agent.followup('go')
      await pause
      agent.raiseBudget({ maxRequests: 5 })
    })
    expect(bars(rec, 'approvals')).toEqual(['over budget [budget]'])
    const layout = layoutTimeline(rec)
    const [bar] = layout.shapes.flatMap((s) => (s.kind === 'bar' && s.lane === 'approvals' ? [s] : []))
    // One request is all `maxRequests: 1` allows: the pause comes before the second.
    expect(rec.entries[bar!.to]?.event).toMatchObject({ type: 'step/start', data: { turn: 1, step: 2 } })
    expect(layout.infos[bar!.info]).toMatchObject({ usage: { requests: 1 }, limits: { maxRequests: 1 } })
  })

  it('R65: a session log that ends paused draws the request still open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'timeline-paused-'))
    try {
      const path = join(dir, 'session.jsonl')
      const agent = createAgent({
        model: scriptedModel([{ toolCalls: [rmCall('c1', 'a')] }]),
        tools: [rm],
        store: fileStore(path),
      })
      const pause = paused(agent)
      agent.followup('go')
      await pause
      await agent.dispose()
      const { record: rec } = readSessionFile(path)
      expect(bars(rec, 'approvals')).toEqual(['rm? [approval] open'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a run that never paused has no approvals lane and no approvals line', async () => {
    const rec = await cancelScenarioRecord()
    expect(layoutTimeline(rec).rows.approvals).toBe(0)
    expect(renderTimeline(rec)).not.toContain('data-lane="approvals"')
    const marbles = toMarbles(rec)
    expect(marbles.approvals).toBe('')
    expect(marbles.text).not.toContain('approvals:')
  })
})
