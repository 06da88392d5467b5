/** Short runs through `reduce` with a minimal effect runner: rules that span several handlers. */
import { describe, expect, it } from 'vitest'
import { fifoToArray } from '../../src/machine/fifo.js'
import type { Input, Signal } from '../../src/machine/inputs.js'
import { reduce } from '../../src/machine/reduce.js'
import type { DeliveryState } from '../../src/machine/state.js'
import { boom, cancel, deepFreeze, followup, idle, q, S, show, turning } from '../support/machineFixtures.js'

// ---------------------------------------------------------------------------------------------
// Short runs through the reducer with a minimal effect runner

/**
 * Folds inputs through `reduce` with a minimal effect runner: `post` runs right after the current
 * reduction (depth-first), `schedule` and effect outcomes run later in FIFO order; hooks allow,
 * models answer with an empty `stop`, checkpoints succeed. Returns every output label.
 */
const simulate = (start: DeliveryState, inputs: readonly Input[]) => {
  let state = start
  const labels: string[] = []
  const later: Input[] = [...inputs]
  const run = (input: Input): void => {
    const result = reduce(state, deepFreeze(input))
    state = result.state
    const posted: Signal[] = []
    for (const o of result.out) {
      labels.push(show(o))
      if (o.kind !== 'effect') continue
      const e = o.effect
      if (e.kind === 'post') posted.push(e.input)
      else if (e.kind === 'schedule') later.push(e.input)
      else if (e.kind === 'prompt-submit')
        later.push({ type: 'admission/allowed', activity: e.activity, admission: { additionalContexts: [] } })
      else if (e.kind === 'step-hook')
        later.push({ type: 'step-hook/done', activity: e.activity, step: e.step })
      else if (e.kind === 'model') later.push({ type: 'model/complete', activity: e.activity, step: e.step })
      else if (e.kind === 'turn-stopping') later.push({ type: 'turn-stopping/done', activity: e.activity })
      else if (e.kind === 'request-error') later.push({ type: 'request-error/done', activity: e.activity })
      else if (e.kind === 'checkpoint') later.push({ type: 'checkpoint/done', activity: e.activity })
      else if (e.kind === 'close-store') later.push({ type: 'dispose/closed' })
    }
    for (const p of posted) run(p)
  }
  for (let input = later.shift(); input; input = later.shift()) run(input)
  return { state, labels }
}

describe('runs (R8, R9, R24, R26, R27)', () => {
  const pick = (labels: readonly string[]) =>
    labels.filter((l) => /^(running|idle|dequeue|discard|turn\/start|turn\/end|settled)/.test(l))

  it('R8/R9: the driver claims parked items ahead of the last waking one, then idles, in one running interval', () => {
    const start = idle({ queue: [q('m1'), q('p2', false), q('m3'), q('p4', false)], wakeScheduled: true })
    const { state, labels } = simulate(start, [{ type: 'wake' }])
    expect(pick(labels)).toStrictEqual([
      'running',
      'dequeue(m1)',
      'turn/start(1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'dequeue(p2)',
      'turn/start(2)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'dequeue(m3)',
      'turn/start(3)',
      'turn/end(3,completed)',
      'settled(3,completed)',
      'idle',
    ])
    expect(fifoToArray(state.queue)).toStrictEqual([q('p4', false)])
    expect(state.waking).toBe(0)
  })

  it('R26/R27: after a keepInbox cancel, queued work runs next with no idle between', () => {
    const start = turning({}, { queue: [q('m2')], outbox: [S('s1')] })
    const { labels } = simulate(start, [cancel('user', true), followup('m3')])
    expect(pick(labels)).toStrictEqual([
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'dequeue(m2)',
      'turn/start(2)',
      'dequeue(s1)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'dequeue(m3)',
      'turn/start(3)',
      'turn/end(3,completed)',
      'settled(3,completed)',
      'idle',
    ])
  })

  it('R27: a send accepted after the clear survives it', () => {
    const start = turning({}, { queue: [q('m2')] })
    const { labels } = simulate(start, [cancel('user'), followup('m3')])
    expect(pick(labels)).toStrictEqual([
      'discard(m2)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'dequeue(m3)',
      'turn/start(2)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'idle',
    ])
  })

  it('R24/R25: a cancel after retry() inside requestError ends the chain: no retry turn after settled', () => {
    const start = turning(
      { phase: 'request-error', stepOpen: false, requestError: boom },
      { retryPending: true },
    )
    const { state, labels } = simulate(start, [cancel('user')])
    expect(pick(labels)).toStrictEqual(['turn/end(1,aborted)', 'settled(1,aborted)', 'idle'])
    expect(state.retryPending).toBe(false)
  })
})
