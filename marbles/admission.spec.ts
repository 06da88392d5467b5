import { filter, take } from 'rxjs'
import { describe, it } from 'vitest'
import type { PromptDecision } from '../src/contracts/hooks.js'
import type { ScriptedReply } from '../src/testing.js'
import { allowAfter, marbles, scenario } from './harness.js'

// Each promptSubmit decision below takes 10 frames; each model reply answers 10 frames after
// its request. A group `(abc)` sits at one frame and its characters advance the clock.
describe('claim and admission', () => {
  it(
    'R10: one idle followup — the window opens before running, then dequeue, then the turn',
    marbles((m) => {
      const script: ScriptedReply[] = ['Hi']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      drive('-f', { f: (agent) => agent.followup('hi') })
      // biome-ignore format: marble alignment
      expectEvents(    '- (erd) 5ms (xi)', {
        e: 'enqueue(hi,queued)', r: 'running', d: 'dequeue(hi)', x: 'settled(1,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('- (tup) 5ms (aen)', {
        t: 'turn/start(1)', u: 'user(hi)', p: 'step/start(1.1)', a: 'assistant(Hi)', e: 'step/end(1.1)',
        n: 'turn/end(1,completed)',
      })
    }),
  )

  it(
    'R12, R13: full write order — inherited prefix kept from a blocked admission, rewritten prompt, additional contexts, then admission-time inject and steer',
    marbles((m) => {
      const decisions: PromptDecision[] = [
        { kind: 'block', reason: 'not now' },
        { kind: 'allow', content: 'P2!', additionalContexts: ['ctx-a'] },
      ]
      let calls = 0
      const promptSubmit = () => allowAfter(m, 10, decisions[calls++])
      const script: ScriptedReply[] = ['A1']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script, hooks: { promptSubmit } })
      // biome-ignore format: marble alignment
      drive(           '-p----sc 7ms P 4ms dt', {
        p: (agent) => agent.followup('p1'),
        s: (agent) => agent.steer('s0'),
        c: (agent) => agent.inject('c0'),
        P: (agent) => agent.followup('p2'),
        d: (agent) => agent.inject('c1'),
        t: (agent) => agent.steer('s1'),
      })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd)S 4ms i---(ERD)-T---(uv) 6ms (xi)', {
        e: 'enqueue(p1,queued)', r: 'running', d: 'dequeue(p1)', S: 'enqueue(s0,steering)', i: 'idle',
        E: 'enqueue(p2,queued)', R: 'running', D: 'dequeue(p2)', T: 'enqueue(s1,steering)',
        u: 'dequeue(s0)', v: 'dequeue(s1)', x: 'settled(1,completed)',
      })
      // biome-ignore format: marble alignment
      expectTranscript('25ms (tsc1a2wp)(AEN)', {
        t: 'turn/start(1)', s: 'steering(s0)', c: 'user(c0)', 1: 'user(P2!)', a: 'user(ctx-a)',
        2: 'user(c1)', w: 'steering(s1)', p: 'step/start(1.1)',
        A: 'assistant(A1)', E: 'step/end(1.1)', N: 'turn/end(1,completed)',
      })
    }),
  )

  it(
    'R13: a failing promptSubmit writes no prompt; agent/error names the would-be turn with step 0; staged context without steering is appended at once',
    marbles((m) => {
      let calls = 0
      const promptSubmit = () =>
        calls++ === 0 ? m.cold('10ms #', {}, new Error('hook failed')) : allowAfter(m, 10)
      const script: ScriptedReply[] = ['A1']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script, hooks: { promptSubmit } })
      // biome-ignore format: marble alignment
      drive(           '-p---c 9ms P', {
        p: (agent) => agent.followup('p1'),
        c: (agent) => agent.inject('c'),
        P: (agent) => agent.followup('p2'),
      })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms (zi)(ERD) 15ms (xi)', {
        e: 'enqueue(p1,queued)', r: 'running', d: 'dequeue(p1)', z: 'error(1.0)', i: 'idle',
        E: 'enqueue(p2,queued)', R: 'running', D: 'dequeue(p2)', x: 'settled(1,completed)',
      })
      // biome-ignore format: marble alignment
      expectTranscript('11ms c 13ms (tup) 5ms (aen)', {
        c: 'user(c)', t: 'turn/start(1)', u: 'user(p2)', p: 'step/start(1.1)', a: 'assistant(A1)',
        e: 'step/end(1.1)', n: 'turn/end(1,completed)',
      })
    }),
  )

  it(
    'R14: a cancel from a running subscriber stops the claim before promptSubmit starts (the hook never runs)',
    marbles((m) => {
      const script: ScriptedReply[] = []
      const { agent, drive, expectEvents, expectTranscript } = scenario(m, {
        script,
        hooks: { promptSubmit: ({ agent }) => void agent.inject('the hook ran') },
      })
      agent.events$
        .pipe(
          filter((e) => e.type === 'agent/status' && e.status === 'running'),
          take(1),
        )
        .subscribe(() => agent.cancel({ kind: 'user' }))
      drive('-f', { f: (a) => a.followup('q') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(ercxi)', {
        e: 'enqueue(q,queued)', r: 'running', c: 'cancel(user)', x: 'discard(q)', i: 'idle',
      })
      expectTranscript('---')
    }),
  )
})
