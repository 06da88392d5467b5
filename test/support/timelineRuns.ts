import { firstValueFrom } from 'rxjs'
import { filter } from 'rxjs/operators'
import type { Agent } from '../../src/index.js'
import { createAgent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import type { TimelineRecord } from '../../src/timeline.js'
import { record } from '../../src/timeline.js'
import { scenarios } from '../scenarios.js'

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

/** Each end-to-end scenario of `test/scenarios.ts`, recorded. */
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
