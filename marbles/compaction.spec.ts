import { describe, it } from 'vitest'
import type { Agent } from '../src/contracts/agent.js'
import type { Summarizer } from '../src/contracts/compaction.js'
import { expectAgentMarbles, type ScriptedReply } from '../src/testing.js'
import { marbles, scenario } from './harness.js'

type Context = Parameters<Parameters<typeof marbles>[0]>[0]

// Frame 1: `go`, answered at 11. Frame 20: compact() with a summariser that answers 20 frames
// later (frame 40) unless stopped.
const go = (agent: Agent) => void agent.followup('go')
const timeline = (agent: Agent, diagram: string, values: Record<string, string>) =>
  expectAgentMarbles(agent, { timeline: diagram, values })
const slowSummary =
  (m: Context): Summarizer =>
  () =>
    m.cold('20ms (s|)', { s: 'summary' })

const FIRST_TURN = {
  e: 'enqueue(go,queued)',
  r: 'running',
  d: 'dequeue(go)',
  t: 'turn/start(1)',
  u: 'user(go)',
  p: 'step/start(1.1)',
  a: 'assistant(ok)',
  q: 'step/end(1.1)',
  n: 'turn/end(1,completed)',
  x: 'settled(1,completed)',
  i: 'idle',
}

describe('R74, R75: compaction in virtual time', () => {
  it(
    'R75: a steer, an inject and a followup sent while it runs wait; the next turn inherits them in order after the summary',
    marbles((m) => {
      const script: ScriptedReply[] = ['ok', { text: 'ok2', delay: 20 }]
      const { agent, drive } = scenario(m, { script })
      const compact = (a: Agent) => void a.compact({ keepLastTurns: 0, summarize: slowSummary(m) })
      drive('-g 18ms c 4ms s-j-f', {
        g: go,
        c: compact,
        s: (a) => void a.steer('fix'),
        j: (a) => void a.inject('fact'),
        f: (a) => void a.followup('more'),
      })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtup)--(aqnxi)--(RC)-S---F 9ms -(KEDTcGWMP) 8ms -(AQNXi)', {
        ...FIRST_TURN, R: 'running', C: 'compaction/start', S: 'enqueue(fix,steering)',
        F: 'enqueue(more,queued)', K: 'compaction(7)', E: 'compaction/end(compacted)',
        D: 'dequeue(more)', T: 'turn/start(2)', c: 'dequeue(fix)', G: 'steering(fix)', W: 'user(fact)',
        M: 'user(more)', P: 'step/start(2.1)', A: 'assistant(ok2)', Q: 'step/end(2.1)',
        N: 'turn/end(2,completed)', X: 'settled(2,completed)',
      })
    }),
  )

  it(
    'R75: cancel() while it runs: compaction/end(aborted) at once, nothing appended, the agent goes idle',
    marbles((m) => {
      const script: ScriptedReply[] = ['ok']
      const { agent, drive } = scenario(m, { script })
      const compact = (a: Agent) => void a.compact({ keepLastTurns: 0, summarize: slowSummary(m) })
      drive('-g 18ms c 5ms k', { g: go, c: compact, k: (a) => a.cancel({ kind: 'user' }) })
      // biome-ignore format: marble alignment
      timeline(agent, '-(erdtup)--(aqnxi)--(RC)--(KEI)', {
        ...FIRST_TURN, R: 'running', C: 'compaction/start', K: 'cancel(user)', E: 'compaction/end(aborted)',
        I: 'idle',
      })
    }),
  )
})
