import { describe, it } from 'vitest'
import type { Agent } from '../src/contracts/agent.js'
import type { ScriptedReply } from '../src/testing.js'
import { approvalTools, PAUSE_END, PAUSE_START, PAUSING_SCRIPT, requestRoles } from './approvalFixtures.js'
import { callTools, expectTimeline, keepingRequests, marbles, scenario } from './harness.js'

// Frame 1: `go`. Frame 11: the model asks for shell() (needs approval) and read() (needs none,
// answers at frame 31); the turn pauses. What happens to the pause is each scenario's own.
const go = (agent: Agent) => void agent.followup('go')
const START = PAUSE_START
const END = PAUSE_END

describe('approvals: sends, decisions and cancel while a turn is paused', () => {
  it(
    "R63, R20b: a steer with onApproval 'deny' denies at once and is drained with the DENIED result, into the same (one) model request",
    marbles((m) => {
      const { script, requests } = keepingRequests(m, PAUSING_SCRIPT)
      const { agent, drive } = scenario(m, { script, tools: approvalTools(m) })
      drive('-f 18ms s', { f: go, s: (a) => void a.steer('use dir', { onApproval: 'deny' }) })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)--(aqQz)---(Skrcn) 4ms (CRDsbP)--(AENxi)', {
        ...START, ...END, S: 'enqueue(use dir,steering)', k: 'approval/decision(denied,use dir)', c: 'tool/call(shell)',
        n: 'tool/result(call-1,DENIED)', C: 'tool/call(read)', R: 'tool/result(call-2)', D: 'dequeue(use dir)',
        s: 'steering(use dir)', b: 'step/end(1.1)', P: 'step/start(1.2)',
      })
      // One request after the pause: its history ends with both results, then the steer.
      m.expect(requestRoles(requests, 60)).toBeObservable('60ms (x|)', {
        x: ['user', 'user,assistant,tool,tool,user'],
      })
    }),
  )

  it(
    'R63, R20b: a plain steer is held across the pause; after the decision it is drained at the end of the step, before step/end',
    marbles((m) => {
      const script = PAUSING_SCRIPT
      const { agent, drive } = scenario(m, { script, tools: approvalTools(m) })
      drive('-f 18ms s 4ms y', { f: go, s: (a) => void a.steer('hold on'), y: (a) => a.approve('call-1') })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)--(aqQz)---S 4ms (Yrcn)(CRDsbP)--(AENxi)', {
        ...START, ...END, S: 'enqueue(hold on,steering)', Y: 'approval/decision(approved)', c: 'tool/call(shell)',
        n: 'tool/result(call-1)', C: 'tool/call(read)', R: 'tool/result(call-2)', D: 'dequeue(hold on)',
        s: 'steering(hold on)', b: 'step/end(1.1)', P: 'step/start(1.2)',
      })
    }),
  )

  it(
    'R64, R25: cancel during the pause — one discard, the pending call ABORTED without a decision, the started one ABORTED, the turn ends aborted',
    marbles((m) => {
      const script: ScriptedReply[] = [
        callTools([
          ['shell', '{}'],
          ['read', '{}'],
        ]),
      ]
      const { agent, drive } = scenario(m, { script, tools: approvalTools(m) })
      drive('-f 18ms s-l--x', {
        f: go,
        s: (a) => void a.steer('hold on'),
        l: (a) => void a.followup('later'),
        x: (a) => a.cancel({ kind: 'user' }),
      })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)--(aqQz)---S-L--(cXCKDkbrNyi)', {
        ...START, S: 'enqueue(hold on,steering)', L: 'enqueue(later,queued)', c: 'cancel(user)',
        X: 'discard(later,hold on)', C: 'tool/call(shell)', K: 'tool/result(call-1,ABORTED)', D: 'tool/call(read)',
        k: 'tool/result(call-2,ABORTED)', b: 'step/end(1.1)', N: 'turn/end(1,aborted)', y: 'settled(1,aborted)',
        i: 'idle',
      })
    }),
  )
})
