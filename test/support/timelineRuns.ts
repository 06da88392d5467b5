import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom } from 'rxjs'
import { filter } from 'rxjs/operators'
import { z } from 'zod'
import type { Agent } from '../../src/index.js'
import { createAgent, defineTool } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import type { TimelineRecord } from '../../src/timeline.js'
import { record } from '../../src/timeline.js'
import { runChild } from './childProcesses.js'
import { scenarios } from './scenarios.js'

const stepStarted = (agent: Agent) =>
  firstValueFrom(agent.transcript$.pipe(filter((e) => e.type === 'step/start')))

/**
 * The README's cancel scenario with a real agent: `go` hangs, then a steer, an inject and a
 * followup wait while the user cancels (without keepInbox). `text` replaces the steer's text.
 */
export const cancelScenarioRecord = async (steer = 's'): Promise<TimelineRecord> => {
  const agent = createAgent({ model: scriptedModel([{ hang: true }]) })
  const recording = record(agent)
  const started = stepStarted(agent)
  agent.followup('go')
  await started
  agent.steer(steer)
  agent.inject('ctx')
  agent.followup('q')
  agent.cancel({ kind: 'user' })
  await agent.whenIdle()
  await agent.dispose()
  return recording.record()
}

/** A tool that needs approval (R61). */
export const rmTool = defineTool({
  name: 'rm',
  description: 'Removes a file.',
  parameters: z.object({ path: z.string() }),
  needsApproval: true,
  execute: ({ path }) => `removed ${path}`,
})
export const rmCall = (id: string, path: string) => ({ id, name: 'rm', arguments: JSON.stringify({ path }) })

/** A turn that pauses on two calls of `rm`: `c1` is approved, `c2` denied with the reason `no`. */
export const approvalScenarioRecord = async (): Promise<TimelineRecord> => {
  const script = [{ toolCalls: [rmCall('c1', 'a'), rmCall('c2', 'b')] }, 'done']
  const agent = createAgent({ model: scriptedModel(script), tools: [rmTool] })
  const recording = record(agent)
  const paused = firstValueFrom(agent.status$.pipe(filter((s) => s === 'paused')))
  agent.followup('go')
  await paused
  agent.approve('c1')
  agent.deny('c2', { reason: 'no' })
  await agent.whenIdle()
  await agent.dispose()
  return recording.record()
}

/** Each end-to-end scenario of `test/support/scenarios.ts`, recorded. */
export const scenarioRecords = async (): Promise<{ name: string; record: TimelineRecord }[]> => {
  const out: { name: string; record: TimelineRecord }[] = []
  for (const s of scenarios) {
    const agent = createAgent({ ...s.options, model: scriptedModel(s.script) })
    const recording = record(agent)
    await s.run(agent)
    await agent.dispose()
    out.push({ name: s.name, record: recording.record() })
  }
  return out
}

/**
 * Every scenario of the marble suite (the specs that build their agent with `scenario()` from
 * marbles/harness.ts), recorded: the suite runs in a child vitest with STEERABLE_RECORD_MARBLES
 * set, and each scenario's record is read back. The suite's own verdict is not ours: a scenario
 * whose diagram fails still ran, and still has a timeline to draw.
 */
export const marbleRecords = (): { name: string; record: TimelineRecord }[] => {
  const dir = mkdtempSync(join(tmpdir(), 'marble-records-'))
  try {
    const specs = readdirSync('marbles').filter(
      (f) => f.endsWith('.spec.ts') && readFileSync(join('marbles', f), 'utf8').includes('scenario('),
    )
    const vitest = join('node_modules', 'vitest', 'vitest.mjs')
    runChild(process.execPath, [vitest, 'run', '--reporter=dot', ...specs.map((f) => join('marbles', f))], {
      env: { ...process.env, STEERABLE_RECORD_MARBLES: dir },
      deadlineMs: 300_000,
    })
    return readdirSync(dir).map(
      (f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { name: string; record: TimelineRecord },
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
