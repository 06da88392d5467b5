import { describe, it } from 'vitest'
import { scriptedModel } from '../src/testing/scriptedModel.js'
import { marbles, scenario } from './harness.js'

describe('acceptance window', () => {
  it(
    'R10: one idle followup — the window opens before running, then dequeue, then the turn',
    marbles((m) => {
      const model = scriptedModel([
        m.cold('10ms (af|)', { a: { type: 'text', text: 'Hi' }, f: { type: 'finish', reason: 'stop' } }),
      ])
      const { drive, expectEvents, expectTranscript } = scenario(m, { model })
      drive('-f', { f: (agent) => agent.followup('hi') })
      // prettier-ignore
      expectEvents('- (erd) 5ms (xi)', {
        e: 'enqueue(hi,queued)',
        r: 'running',
        d: 'dequeue(hi)',
        x: 'settled(1,completed)',
        i: 'idle',
      })
      expectTranscript('- (tup) 5ms (aen)', {
        t: 'turn/start(1)',
        u: 'user(hi)',
        p: 'step/start(1.1)',
        a: 'assistant(Hi)',
        e: 'step/end(1.1)',
        n: 'turn/end(1,completed)',
      })
    }),
  )
})
