import { first } from 'rxjs'
import { describe, it } from 'vitest'
import { z } from 'zod'
import type { Agent } from '../src/contracts/agent.js'
import type { ModelEvent } from '../src/contracts/model.js'
import { expectAgentMarbles, type ScriptedReply } from '../src/testing.js'
import { defineTool } from '../src/tools/defineTool.js'
import { marbles, scenario } from './harness.js'

type Context = Parameters<Parameters<typeof marbles>[0]>[0]

// Frame 1: `go`. The answer streams `a` at 11, `b` at 13, `c` at 15 and finishes at 17; the next
// request answers `ok` 10 frames after it is made.
const streaming = (m: Context) => [
  m.cold<ModelEvent>('10ms a-b-c-(f|)', {
    a: { type: 'text', text: 'a' },
    b: { type: 'text', text: 'b' },
    c: { type: 'text', text: 'c' },
    f: { type: 'finish', reason: 'stop' },
  }),
  'ok',
]
const go = (agent: Agent) => void agent.followup('go')
const cut = (agent: Agent) => void agent.steer('stop', { interrupt: true })
const timeline = (agent: Agent, diagram: string, values: Record<string, string>) =>
  expectAgentMarbles(agent, { timeline: diagram, values, deltas: true, tools: true })

const START = {
  e: 'enqueue(go,queued)',
  r: 'running',
  d: 'dequeue(go)',
  t: 'turn/start(1)',
  u: 'user(go)',
  p: 'step/start(1.1)',
}
const NEXT = {
  O: 'delta(ok)',
  A: 'assistant(ok)',
  E: 'step/end(1.2)',
  N: 'turn/end(1,completed)',
  x: 'settled(1,completed)',
  i: 'idle',
}

describe('R68: an interrupting steer in virtual time', () => {
  it(
    'R68: between the second and the last delta: no delta after the enqueue, the partial text kept, the next step runs at once',
    marbles((m) => {
      const { agent, drive } = scenario(m, { script: streaming(m) })
      drive('-f 12ms s', { f: go, s: cut })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtup)--a-b(SKDCBP)--(OAENxi)', {
        ...START, ...NEXT, a: 'delta(a)', b: 'delta(b)', S: 'enqueue(stop,steering)', K: 'assistant(ab,cut)',
        D: 'dequeue(stop)', C: 'steering(stop,cut)', B: 'step/end(1.1,cut)', P: 'step/start(1.2)',
      })
    }),
  )

  it(
    'R68, R21: during the tool batch it is a plain steer, drained after the batch; nothing is cut',
    marbles((m) => {
      const slow = defineTool({
        name: 'slow',
        description: 'Answers 20 frames after it starts.',
        parameters: z.object({}),
        execute: () => m.cold('20ms (r|)', { r: 'done' }),
      })
      const script: ScriptedReply[] = [{ toolCalls: [{ name: 'slow' }], delay: 0 }, 'ok']
      const { agent, drive } = scenario(m, { script, tools: [slow] })
      drive('-f 10ms s', { f: go, s: cut })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtupKT)-S 8ms (ZCRDGBP)-(OAENxi)', {
        ...START, ...NEXT, K: 'assistant(slow())', T: 'tool/start(call-1)', S: 'enqueue(stop,steering)',
        Z: 'tool/end(call-1)', C: 'tool/call(slow)', R: 'tool/result(call-1)', D: 'dequeue(stop)',
        G: 'steering(stop)', B: 'step/end(1.1)', P: 'step/start(1.2)',
      })
    }),
  )

  const onDelta = (agent: Agent, text: string) =>
    agent.events$
      .pipe(first((e) => e.type === 'agent/stream/delta' && e.text === text))
      .subscribe(() => cut(agent))
  const CUT = {
    S: 'enqueue(stop,steering)',
    D: 'dequeue(stop)',
    C: 'steering(stop,cut)',
    B: 'step/end(1.1,cut)',
  }

  it(
    'R68: from a subscriber of the first delta: cut in that frame, after the delta, keeping it',
    marbles((m) => {
      const { agent, drive } = scenario(m, { script: streaming(m) })
      onDelta(agent, 'a')
      drive('-f', { f: go })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtup)--(aSKDCBP)-(OAENxi)', {
        ...START, ...NEXT, ...CUT, a: 'delta(a)', K: 'assistant(a,cut)', P: 'step/start(1.2)',
      })
    }),
  )

  it(
    'R68: from a subscriber of the last delta: the whole text kept as cut, the finish two frames later never read',
    marbles((m) => {
      const { agent, drive } = scenario(m, { script: streaming(m) })
      onDelta(agent, 'c')
      drive('-f', { f: go })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtup)--a-b-(cSKDCBP)-(OAENxi)', {
        ...START, ...NEXT, ...CUT, a: 'delta(a)', b: 'delta(b)', c: 'delta(c)', K: 'assistant(abc,cut)',
        P: 'step/start(1.2)',
      })
    }),
  )

  it(
    'R68: in the frame of the finish and applied before it: the step is cut, the finish is never read',
    marbles((m) => {
      const { agent, drive } = scenario(m, { script: streaming(m) })
      drive('-f 15ms s', { f: go, s: cut })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtup)--a-b-c-(SKDCBP)--(OAENxi)', {
        ...START, ...NEXT, ...CUT, a: 'delta(a)', b: 'delta(b)', c: 'delta(c)', K: 'assistant(abc,cut)',
        P: 'step/start(1.2)',
      })
    }),
  )

  it(
    'R68, R21: between the finish and the tool batch (from a subscriber of the answer): a plain steer, staged before the call starts and drained after the batch',
    marbles((m) => {
      const slow = defineTool({
        name: 'slow',
        description: 'Answers 20 frames after it starts.',
        parameters: z.object({}),
        execute: () => m.cold('20ms (r|)', { r: 'done' }),
      })
      const script: ScriptedReply[] = [{ toolCalls: [{ name: 'slow' }], delay: 0 }, 'ok']
      const { agent, drive } = scenario(m, { script, tools: [slow] })
      agent.transcript$.pipe(first((e) => e.type === 'assistant/message')).subscribe(() => cut(agent))
      drive('-f', { f: go })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtupKST) 9ms (ZCRDGBP)-(OAENxi)', {
        ...START, ...NEXT, K: 'assistant(slow())', S: 'enqueue(stop,steering)', T: 'tool/start(call-1)',
        Z: 'tool/end(call-1)', C: 'tool/call(slow)', R: 'tool/result(call-1)', D: 'dequeue(stop)',
        G: 'steering(stop)', B: 'step/end(1.1)', P: 'step/start(1.2)',
      })
    }),
  )

  it(
    'R68, R25: an interrupting steer, then cancel() in one stack: the cut and the next step come first, then the cancel aborts that step',
    marbles((m) => {
      const { agent, drive } = scenario(m, { script: streaming(m) })
      const both = (a: Agent) => {
        cut(a)
        a.cancel({ kind: 'user' })
      }
      drive('-f 12ms s', { f: go, s: both })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtup)--a-b(SKDCBPXFMyi)', {
        ...START, ...CUT, a: 'delta(a)', b: 'delta(b)', K: 'assistant(ab,cut)', P: 'step/start(1.2)',
        X: 'cancel(user)', F: 'step/end(1.2)', M: 'turn/end(1,aborted)', y: 'settled(1,aborted)', i: 'idle',
      })
    }),
  )

  it(
    'R68: two interrupting steers in one stack: the first cuts, the second cuts the step the first opened before it streams, and the next request holds both',
    marbles((m) => {
      const script: ScriptedReply[] = [
        m.cold<ModelEvent>('10ms a-b-c-(f|)', {
          a: { type: 'text', text: 'a' },
          b: { type: 'text', text: 'b' },
          c: { type: 'text', text: 'c' },
          f: { type: 'finish', reason: 'stop' },
        }),
        'never',
        // Later than the others, so its frame (34) comes after the frames the cut's group takes.
        m.cold<ModelEvent>('20ms (tf|)', {
          t: { type: 'text', text: 'ok' },
          f: { type: 'finish', reason: 'stop' },
        }),
      ]
      const { agent, drive } = scenario(m, { script })
      const both = (a: Agent) => {
        cut(a)
        a.steer('more', { interrupt: true })
      }
      drive('-f 12ms s', { f: go, s: both })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtup)--a-b(SKDCBPTLVWQ) 7ms (OAENxi)', {
        ...START, ...NEXT, ...CUT, a: 'delta(a)', b: 'delta(b)', K: 'assistant(ab,cut)', P: 'step/start(1.2)',
        T: 'enqueue(more,steering)', L: 'dequeue(more)', V: 'steering(more,cut)', W: 'step/end(1.2,cut)',
        Q: 'step/start(1.3)', E: 'step/end(1.3)',
      })
    }),
  )

  it(
    'R68, R27: an interrupting steer from a cancel-requested subscriber cuts nothing: it is cleared with the rest',
    marbles((m) => {
      const { agent, drive } = scenario(m, { script: streaming(m) })
      agent.events$.pipe(first((e) => e.type === 'agent/cancel-requested')).subscribe(() => cut(agent))
      drive('-f 12ms s', { f: go, s: (a) => a.cancel({ kind: 'user' }) })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtup)--a-b(XSLGMyi)', {
        ...START, a: 'delta(a)', b: 'delta(b)', X: 'cancel(user)', S: 'enqueue(stop,steering)',
        L: 'discard(stop)', G: 'step/end(1.1)', M: 'turn/end(1,aborted)', y: 'settled(1,aborted)', i: 'idle',
      })
    }),
  )
})
