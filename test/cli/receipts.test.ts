/**
 * The receipt of a steer names the step that reads it (R42 gives the step whose `step/end`
 * follows the steer; a steer drained at a step's end is read by the next one).
 */
import { first, firstValueFrom, Subject } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Receipts } from '../../src/cli/receipts.js'
import type { ModelEvent } from '../../src/contracts/model.js'
import { type Agent, createAgent, defineTool } from '../../src/index.js'

const steps = (agent: Agent, n: number) =>
  firstValueFrom(agent.transcript$.pipe(first((e) => e.type === 'step/start' && e.data.step === n)))

const receiptsOf = (agent: Agent) => {
  const printed: string[] = []
  const receipts = new Receipts(agent, (line) => printed.push(line))
  return { printed, track: (id: ReturnType<Agent['steer']>, text: string) => receipts.track(id, text) }
}

describe("R42: a steer's receipt names the step that reads it", () => {
  it('R42: a steer sent while the tools run is read by the next step, and its receipt says so', async () => {
    const release = new Subject<string>()
    const slow = defineTool({
      name: 'slow',
      description: 'Runs until told.',
      parameters: z.object({}),
      execute: () => release.pipe(first()),
    })
    let n = 0
    const agent = createAgent({
      tools: [slow],
      model: (): ModelEvent[] =>
        ++n === 1
          ? [
              { type: 'tool-call', id: 'slow-1', name: 'slow', arguments: '{}' },
              { type: 'finish', reason: 'tool-calls' },
            ]
          : [
              { type: 'text', text: 'ok' },
              { type: 'finish', reason: 'stop' },
            ],
    })
    const { printed, track } = receiptsOf(agent)
    const started = firstValueFrom(agent.events$.pipe(first((e) => e.type === 'agent/tool/start')))
    agent.followup('go')
    await started
    track(agent.steer('be brief'), 'be brief')
    release.next('done')
    await agent.whenIdle()
    await steps(agent, 2)
    await new Promise((resolve) => setImmediate(resolve))
    expect(printed).toEqual(['✓ steered into 1.2 · be brief'])
    const read = agent.session.events.filter((e) => e.type === 'step/start').map((e) => e.data.step)
    expect(read).toEqual([1, 2])
  })

  it("R68: an interrupting steer's receipt names the step that reads it and the one it cut", async () => {
    const stream = new Subject<ModelEvent>()
    let n = 0
    const agent = createAgent({
      model: () =>
        ++n === 1
          ? stream
          : [
              { type: 'text', text: 'ok' },
              { type: 'finish', reason: 'stop' },
            ],
    })
    const { printed, track } = receiptsOf(agent)
    agent.followup('hi')
    await steps(agent, 1)
    stream.next({ type: 'text', text: 'long ' })
    track(agent.steer('shorter', { interrupt: true }), 'shorter')
    await agent.whenIdle()
    await new Promise((resolve) => setImmediate(resolve))
    expect(printed).toEqual(['✓ steered into 1.2 (cut 1.1) · shorter'])
  })
})
