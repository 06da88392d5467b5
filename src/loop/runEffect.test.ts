/** The effect runner's error paths: a failure of our own machinery still becomes a signal (R23). */
import { asapScheduler, lastValueFrom, type Observable, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { Transcript } from '../session/session.js'
import { memoryStore } from '../session/store.js'
import type { Signal } from './inputs.js'
import { createEffectRunner } from './runEffect.js'

const runnerWith = (runTools: () => never) => {
  const store = memoryStore()
  return createEffectRunner({
    agent: {},
    agentId: 'a',
    model: () => [],
    hooks: {},
    toolSpecs: [],
    runTools,
    transcript: new Transcript(store, [], () => {}),
    store,
    scheduler: asapScheduler,
    post: () => {},
    complete: () => {},
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
