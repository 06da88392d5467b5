import { describe, it } from 'vitest'
import type { ScriptedReply } from '../src/testing.js'
import { marbles, scenario } from './harness.js'

describe('steps and the window close', () => {
  it(
    'R16, R20c: steering sent from turnStopping is drained after it and runs another step of the same turn',
    marbles((m) => {
      let stops = 0
      const script: ScriptedReply[] = ['A1', 'A2']
      const { drive, expectEvents, expectTranscript } = scenario(m, {
        script,
        hooks: {
          turnStopping: ({ agent }) => {
            if (stops++ === 0) agent.steer('more')
          },
        },
      })
      drive('-f', { f: (agent) => agent.followup('go') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms (SD) 6ms (xi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', S: 'enqueue(more,steering)',
        D: 'dequeue(more)', x: 'settled(1,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms (aesP) 4ms (AEN)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', a: 'assistant(A1)', e: 'step/end(1.1)',
        s: 'steering(more)', P: 'step/start(1.2)', A: 'assistant(A2)', E: 'step/end(1.2)',
        N: 'turn/end(1,completed)',
      })
    }),
  )

  it(
    'R19, R13b: the window closes before turn/end; a steer from a turn/end subscriber is a queued followup that runs next with no idle between',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1', 'A2']
      const { agent, drive, expectEvents, expectTranscript } = scenario(m, { script })
      let steered = false
      agent.transcript$.subscribe((event) => {
        if (event.type === 'turn/end' && !steered) {
          steered = true
          agent.steer(agent.acceptsNextStep ? 'window open?!' : 'late')
        }
      })
      drive('-f', { f: (a) => a.followup('go') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms (xLD) 5ms (yi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', x: 'settled(1,completed)',
        L: 'enqueue(late,queued)', D: 'dequeue(late)', y: 'settled(2,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms (aenTUP)--(AEN)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', a: 'assistant(A1)', e: 'step/end(1.1)',
        n: 'turn/end(1,completed)', T: 'turn/start(2)', U: 'user(late)', P: 'step/start(2.1)',
        A: 'assistant(A2)', E: 'step/end(2.1)', N: 'turn/end(2,completed)',
      })
    }),
  )
})
