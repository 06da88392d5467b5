/** The effect runner's error paths: a failure of our own machinery still becomes a signal (R23). */
import { asapScheduler, EMPTY, lastValueFrom, type Observable, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import type { Signal } from '../../src/machine/inputs.js'
import { Activities } from '../../src/runtime/activities.js'
import { ActivityTimers } from '../../src/runtime/activityTimers.js'
import { createEffectRunner } from '../../src/runtime/effectRunner.js'
import { Summarizers } from '../../src/runtime/summarizers.js'
import { memoryStore } from '../../src/session/memoryStore.js'
import { Transcript } from '../../src/session/transcript.js'
import { ToolCatalog } from '../../src/tools/toolCatalog.js'

const runnerWith = (runTools: () => never) => {
  const store = memoryStore()
  return createEffectRunner({
    agent: {},
    agentId: 'a',
    model: () => [],
    hooks: {},
    toolbox: new ToolCatalog([]),
    runTools,
    approvals: { check: () => undefined, timeoutOf: () => undefined },
    timers: new ActivityTimers(asapScheduler),
    transcript: new Transcript(store, []),
    summarizers: new Summarizers(undefined, 1),
    store,
    scheduler: asapScheduler,
    post: () => {},
    schedule: () => {},
    complete: () => {},
    steersDuring: () => EMPTY,
    activities: new Activities(),
    system: undefined,
  })
}

describe('createEffectRunner', () => {
  it.each([
    ['an Error', new Error('runner bug')],
    ['Object.create(null)', Object.create(null)],
  ])('R23: a batch runner that throws %s answers tools/failed', async (_name, error) => {
    const run = runnerWith(() => {
      throw error
    })
    const answer = run({ kind: 'tools', activity: 3, turn: 1, step: 2, calls: [] }) as Observable<Signal>
    const signals = await lastValueFrom(answer.pipe(toArray()))
    expect(signals).toStrictEqual([{ type: 'tools/failed', activity: 3, step: 2, error }])
  })
})
