import { describe, it } from 'vitest'
import type { ScriptedReply } from '../src/testing.js'
import { marbles, scenario } from './harness.js'

const PARKED = { target: 'next-turn', wakeup: false } as const

// Frames: a group `(abc)` sits at one frame and its characters advance the clock; `Nms` advances
// N frames. Each model reply answers 10 frames after its request.
describe('R4 routing matrix, R6 deferred wake, R8 parked items', () => {
  it(
    'R4 next-turn + wakeup: queued in any window state, wakes an idle driver, runs as its own turn',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1', 'A2']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      // biome-ignore format: marble alignment
      drive(           '-a------b', { a: (agent) => agent.followup('a'), b: (agent) => agent.followup('b') })
      // biome-ignore format: marble alignment
      expectEvents(    '- (erd) -- f 2ms (sg) 6ms (xi)', {
        e: 'enqueue(a,queued)', r: 'running', d: 'dequeue(a)',
        f: 'enqueue(b,queued)', s: 'settled(1,completed)', g: 'dequeue(b)',
        x: 'settled(2,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('- (tup) 5ms (aenTUP) 2ms (AEN)', {
        t: 'turn/start(1)', u: 'user(a)', p: 'step/start(1.1)', a: 'assistant(A1)', e: 'step/end(1.1)',
        n: 'turn/end(1,completed)', T: 'turn/start(2)', U: 'user(b)', P: 'step/start(2.1)',
        A: 'assistant(A2)', E: 'step/end(2.1)', N: 'turn/end(2,completed)',
      })
    }),
  )

  it(
    'R4 next-turn without wakeup, R8: parked items never wake; a waking send claims the FIFO head; parked items behind the last waking one stay parked',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1', 'A2']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      // biome-ignore format: marble alignment
      drive(           '-p---w------q', {
        p: (agent) => agent.send('p', PARKED),
        w: (agent) => agent.followup('w'),
        q: (agent) => agent.send('q', PARKED),
      })
      // biome-ignore format: marble alignment
      expectEvents(    '-P---(Wrd)--Q--(sD) 6ms (Si)', {
        P: 'enqueue(p,queued)', W: 'enqueue(w,queued)', Q: 'enqueue(q,queued)', r: 'running',
        d: 'dequeue(p)', s: 'settled(1,completed)', D: 'dequeue(w)', S: 'settled(2,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('5ms (tus) 5ms (aenTUS)--(AEN)', {
        t: 'turn/start(1)', u: 'user(p)', s: 'step/start(1.1)', a: 'assistant(A1)', e: 'step/end(1.1)',
        n: 'turn/end(1,completed)', T: 'turn/start(2)', U: 'user(w)', S: 'step/start(2.1)',
        A: 'assistant(A2)', E: 'step/end(2.1)', N: 'turn/end(2,completed)',
      })
    }),
  )

  it(
    'R4 next-step + wakeup, window open: steering, drained at the end of the step, which then continues (R16, R20)',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1', 'A2']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      // biome-ignore format: marble alignment
      drive(           '-f-----s', { f: (agent) => agent.followup('go'), s: (agent) => agent.steer('s') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd)-S---D 9ms (xi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', S: 'enqueue(s,steering)',
        D: 'dequeue(s)', x: 'settled(1,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms (aSeP) 4ms (AEN)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', a: 'assistant(A1)', S: 'steering(s)',
        e: 'step/end(1.1)', P: 'step/start(1.2)', A: 'assistant(A2)', E: 'step/end(1.2)',
        N: 'turn/end(1,completed)',
      })
    }),
  )

  it(
    'R4 next-step + wakeup, window closed: exactly like a followup (queued, waking, its own turn)',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      drive('-s', { s: (agent) => agent.steer('s') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms (xi)', {
        e: 'enqueue(s,queued)', r: 'running', d: 'dequeue(s)', x: 'settled(1,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms (aen)', {
        t: 'turn/start(1)', u: 'user(s)', p: 'step/start(1.1)', a: 'assistant(A1)', e: 'step/end(1.1)',
        n: 'turn/end(1,completed)',
      })
    }),
  )

  it(
    'R4 next-step without wakeup, window open: staged context, no event; it enters at the next drain and forces no step (R16)',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      // biome-ignore format: marble alignment
      drive(           '-f-----c', { f: (agent) => agent.followup('go'), c: (agent) => agent.inject('ctx') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms (xi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', x: 'settled(1,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms (acen)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', a: 'assistant(A1)', c: 'user(ctx)',
        e: 'step/end(1.1)', n: 'turn/end(1,completed)',
      })
    }),
  )

  it(
    'R4 next-step without wakeup, window closed: appended at once — no turn, no model run, no status change',
    marbles((m) => {
      const script: ScriptedReply[] = []
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      drive('-c-d', { c: (agent) => agent.inject('c1'), d: (agent) => agent.inject('c2') })
      expectEvents('----')
      expectTranscript('-c-d', { c: 'user(c1)', d: 'user(c2)' })
    }),
  )

  it(
    'R6: two idle steer() calls in one stack become two queued turns, never steering',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1', 'A2']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      drive('-s', {
        s: (agent) => {
          agent.steer('s1')
          agent.steer('s2')
        },
      })
      // biome-ignore format: marble alignment
      expectEvents(    '-(abrd) 4ms (xD) 6ms (yi)', {
        a: 'enqueue(s1,queued)', b: 'enqueue(s2,queued)', r: 'running', d: 'dequeue(s1)',
        x: 'settled(1,completed)', D: 'dequeue(s2)', y: 'settled(2,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms (aenTUP)--(AEN)', {
        t: 'turn/start(1)', u: 'user(s1)', p: 'step/start(1.1)', a: 'assistant(A1)', e: 'step/end(1.1)',
        n: 'turn/end(1,completed)', T: 'turn/start(2)', U: 'user(s2)', P: 'step/start(2.1)',
        A: 'assistant(A2)', E: 'step/end(2.1)', N: 'turn/end(2,completed)',
      })
    }),
  )

  it(
    'R6: a followup then an inject in one stack puts the injected user/message before the turn/start',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      drive('-s', {
        s: (agent) => {
          agent.followup('q')
          agent.inject('ctx')
        },
      })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms (xi)', {
        e: 'enqueue(q,queued)', r: 'running', d: 'dequeue(q)', x: 'settled(1,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(ctup) 4ms (aen)', {
        c: 'user(ctx)', t: 'turn/start(1)', u: 'user(q)', p: 'step/start(1.1)', a: 'assistant(A1)',
        e: 'step/end(1.1)', n: 'turn/end(1,completed)',
      })
    }),
  )
})
