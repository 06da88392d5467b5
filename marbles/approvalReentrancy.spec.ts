import { map, merge } from 'rxjs'
import { describe, it } from 'vitest'
import type { ScriptedReply } from '../src/testing.js'
import { createTestAgent, labelled } from '../src/testing.js'
import { approvalTools, PAUSE_END, PAUSE_START, PAUSING_SCRIPT } from './approvalFixtures.js'
import { callTools, expectTimeline, marbles, scenario } from './harness.js'

// As in approvals.spec.ts: `go` at frame 1; at frame 11 the model asks for shell() (needs
// approval) and read() (needs none, answers at frame 31). Here the decision is made inside the
// call stack of another event, where every call waits in a trampoline.
const START = {
  ...PAUSE_START,
  Y: 'approval/decision(approved)',
  c: 'tool/call(shell)',
  n: 'tool/result(call-1)',
  C: 'tool/call(read)',
  R: 'tool/result(call-2)',
  b: 'step/end(1.1)',
  P: 'step/start(1.2)',
}
const END = PAUSE_END

describe('approvals: a decision made in the call stack of another event', () => {
  it(
    'R62, R61: approved by a subscriber of agent/approval/requested — the pause is published whole first, then the decision, running and the call',
    marbles((m) => {
      const script = PAUSING_SCRIPT
      const { agent, drive } = scenario(m, { script, tools: approvalTools(m) })
      agent.events$.subscribe((e) => {
        if (e.type === 'agent/approval/requested') agent.approve(e.callId)
      })
      drive('-f', { f: (a) => void a.followup('go') })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)--(aqQzYrcn) 10ms (CRbP) 4ms (AENxi)', { ...START, ...END })
    }),
  )

  it(
    'R62, R21: approved in the call stack of the last result of the calls that needed none — that held result is recorded after the approved call, in model order',
    marbles((m) => {
      const script = PAUSING_SCRIPT
      const tools = approvalTools(m, (agent) => agent.approve('call-1'))
      const { agent, drive } = scenario(m, { script, tools })
      drive('-f', { f: (a) => void a.followup('go') })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)--(aqQz) 14ms (YrcnCRbP)(AENxi)', { ...START, ...END })
    }),
  )

  it(
    'R62, R21: approved at the very frame the last result of the calls that needed none arrives, just before it — the same transcript',
    marbles((m) => {
      const script = PAUSING_SCRIPT
      const { agent, drive } = scenario(m, { script, tools: approvalTools(m) })
      drive('-f 29ms y', { f: (a) => void a.followup('go'), y: (a) => a.approve('call-1') })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)--(aqQz) 14ms (YrcnCRbP)(AENxi)', { ...START, ...END })
    }),
  )

  it(
    'R62, R19: approved by a subscriber of turn/end of a sibling agent — the paused turn goes on inside that call stack, before the sibling settles',
    marbles((m) => {
      const script: ScriptedReply[] = [
        callTools([
          ['shell', '{}'],
          ['read', '{}'],
        ]),
        { text: 'A2', delay: 20 },
      ]
      const agent = createTestAgent({ script, tools: approvalTools(m), scheduler: m.scheduler })
      const sibling = createTestAgent({ script: [{ text: 'B1', delay: 15 }], scheduler: m.scheduler })
      const both = merge(labelled(agent).timeline$, labelled(sibling).timeline$.pipe(map((l) => `B:${l}`)))
      // biome-ignore format: marble alignment
      m.expect(both).toBeObservable('-(erdtup)--(aqQz)---(123456) 7ms (789YrcnCRbPjk) 5ms (AENxi)', {
        ...START, ...END, 1: 'B:enqueue(b,queued)', 2: 'B:running', 3: 'B:dequeue(b)', 4: 'B:turn/start(1)',
        5: 'B:user(b)', 6: 'B:step/start(1.1)', 7: 'B:assistant(B1)', 8: 'B:step/end(1.1)',
        9: 'B:turn/end(1,completed)', j: 'B:settled(1,completed)', k: 'B:idle',
      })
      // Subscribed after the expectation, so that the labels above see each event before it.
      const approveOnSiblingEnd = () =>
        sibling.transcript$.subscribe((e) => {
          if (e.type === 'turn/end') agent.approve('call-1')
        })
      const calls: Record<string, () => void> = {
        f: () => void agent.followup('go'),
        b: () => {
          approveOnSiblingEnd()
          sibling.followup('b')
        },
      }
      m.hot('-f 18ms b', calls).subscribe((call) => call())
    }),
  )
})
