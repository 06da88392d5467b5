import { NEVER } from 'rxjs'
import { describe, it } from 'vitest'
import type { Agent } from '../src/contracts/agent.js'
import type { ScriptedReply } from '../src/testing.js'
import { expectTimeline, marbles, scenario } from './harness.js'

// Turn 1's model hangs until aborted. Steer `s` (frame 9), inject `ctx` (11) and followup `q` (13)
// are pending when the user cancels at frame 15 — the contract's worked traces (docs/contract.md, section
// 10).
const pending = {
  f: (agent: Agent) => agent.followup('go'),
  s: (agent: Agent) => agent.steer('s'),
  c: (agent: Agent) => agent.inject('ctx'),
  q: (agent: Agent) => agent.followup('q'),
  x: (agent: Agent) => agent.cancel({ kind: 'user' }),
  k: (agent: Agent) => agent.cancel({ kind: 'user' }, { keepInbox: true }),
}
const CALLS = '-f-------s-c-q-'

describe('cancel', () => {
  it(
    'R25, V1: cancel without keepInbox — cancel-requested, one discard (queued, then steering), the turn ends aborted, staged context is appended, idle',
    marbles((m) => {
      const script: ScriptedReply[] = [{ hang: true }]
      const { agent, drive, expectEvents, expectTranscript } = scenario(m, { script })
      drive(`${CALLS}x`, pending)
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd)---S---Q-(cXxi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', S: 'enqueue(s,steering)',
        Q: 'enqueue(q,queued)', c: 'cancel(user)', X: 'discard(q,s)', x: 'settled(1,aborted)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 9ms (enc)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', e: 'step/end(1.1)',
        n: 'turn/end(1,aborted)', c: 'user(ctx)',
      })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)S---Q-(CXEnUxi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', t: 'turn/start(1)', u: 'user(go)',
        p: 'step/start(1.1)', S: 'enqueue(s,steering)', Q: 'enqueue(q,queued)', C: 'cancel(user)',
        X: 'discard(q,s)', n: 'turn/end(1,aborted)', x: 'settled(1,aborted)', i: 'idle',
        E: 'step/end(1.1)', U: 'user(ctx)',
      })
    }),
  )

  it(
    'R26: cancel with keepInbox — nothing discarded, the queued followup runs next with no idle, staged steering and context are its inherited prefix',
    marbles((m) => {
      const script: ScriptedReply[] = [{ hang: true }, { text: 'A2', delay: 20 }]
      const { agent, drive, expectEvents, expectTranscript } = scenario(m, { script })
      drive(`${CALLS}k`, pending)
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd)---S---Q-(cxDE) 14ms (yi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', S: 'enqueue(s,steering)',
        Q: 'enqueue(q,queued)', c: 'cancel(user)', x: 'settled(1,aborted)', D: 'dequeue(q)',
        E: 'dequeue(s)', y: 'settled(2,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 9ms (enTscUP) 11ms (AEN)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', e: 'step/end(1.1)',
        n: 'turn/end(1,aborted)', T: 'turn/start(2)', s: 'steering(s)', c: 'user(ctx)', U: 'user(q)',
        P: 'step/start(2.1)', A: 'assistant(A2)', E: 'step/end(2.1)', N: 'turn/end(2,completed)',
      })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)S---Q-(CznxDTEscUP) 7ms (AFNyi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', t: 'turn/start(1)', u: 'user(go)',
        p: 'step/start(1.1)', S: 'enqueue(s,steering)', Q: 'enqueue(q,queued)', C: 'cancel(user)',
        n: 'turn/end(1,aborted)', x: 'settled(1,aborted)', D: 'dequeue(q)', T: 'turn/start(2)',
        E: 'dequeue(s)', s: 'steering(s)', c: 'user(ctx)', P: 'step/start(2.1)', A: 'assistant(A2)',
        z: 'step/end(1.1)', U: 'user(q)',
        F: 'step/end(2.1)', N: 'turn/end(2,completed)', y: 'settled(2,completed)', i: 'idle',
      })
    }),
  )

  it(
    'R27: sends from cancel-requested subscribers are cleared; sends from abort-signal listeners survive and run next',
    marbles((m) => {
      let agentRef: Agent | undefined
      const hangAndListen = (request: { signal: AbortSignal }) => {
        request.signal.addEventListener('abort', () => agentRef?.followup('survives'))
        return NEVER
      }
      const script: ScriptedReply[] = [hangAndListen, 'A2']
      const { agent, drive, expectEvents, expectTranscript } = scenario(m, { script })
      agentRef = agent
      agent.events$.subscribe((event) => {
        if (event.type === 'agent/cancel-requested') agent.followup('cleared')
      })
      drive('-f 8ms x', pending)
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 4ms (cEXFxD)--(yi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', c: 'cancel(user)',
        E: 'enqueue(cleared,queued)', X: 'discard(cleared)', F: 'enqueue(survives,queued)',
        x: 'settled(1,aborted)', D: 'dequeue(survives)', y: 'settled(2,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 4ms (enTUP)---(AEN)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', e: 'step/end(1.1)',
        n: 'turn/end(1,aborted)', T: 'turn/start(2)', U: 'user(survives)', P: 'step/start(2.1)',
        A: 'assistant(A2)', E: 'step/end(2.1)', N: 'turn/end(2,completed)',
      })
    }),
  )
})
