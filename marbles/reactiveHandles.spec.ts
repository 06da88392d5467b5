import { map, merge } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Agent } from '../src/contracts/agent.js'
import { InvalidInputError } from '../src/contracts/errors.js'
import type { AgentMessageId } from '../src/contracts/messages.js'
import { sendTo } from '../src/operators/sendTo.js'
import { labelled } from '../src/testing/label.js'
import { defineTool } from '../src/tools/defineTool.js'
import { marbles, scenario } from './harness.js'

/** `window$` as labels, merged into the one global order of live and durable events. */
const withWindow = (agent: Agent) =>
  merge(agent.window$.pipe(map((open) => (open ? 'open' : 'closed'))), labelled(agent).timeline$)

// The model answers 10 frames after its request; a group `(abc)` sits at one frame and its
// characters advance the clock.
describe('R82: reactive handles in the one global order', () => {
  it(
    'R82: window$ opens before the claim publishes running and closes right before turn/end',
    marbles((m) => {
      const { agent, drive } = scenario(m, { script: ['Hi'] })
      drive('-f', { f: (a) => a.followup('hi') })
      // biome-ignore format: marble alignment
      m.expect(withWindow(agent)).toBeObservable('c(qordtup)-(aeCnxi)', {
        c: 'closed', q: 'enqueue(hi,queued)', o: 'open', r: 'running', d: 'dequeue(hi)',
        t: 'turn/start(1)', u: 'user(hi)', p: 'step/start(1.1)', a: 'assistant(Hi)', e: 'step/end(1.1)',
        C: 'closed', n: 'turn/end(1,completed)', x: 'settled(1,completed)', i: 'idle',
      })
    }),
  )

  it(
    'R82: between two queued turns the window closes before turn/end and opens again at the next claim',
    marbles((m) => {
      const { agent, drive } = scenario(m, { script: ['A1', 'A2'] })
      drive('-(fg)', { f: (a) => a.followup('one'), g: (a) => a.followup('two') })
      // Turn 1 ends and turn 2 is claimed at frame 11: the window closes, then opens again.
      m.expect(agent.window$).toBeObservable('ab 9ms (cb) 6ms c', { a: false, b: true, c: false })
    }),
  )

  it(
    'R82: text$ accumulates each step from its text deltas; the next step starts from the empty text',
    marbles((m) => {
      const look = defineTool({
        name: 'look',
        description: 'Looks.',
        parameters: z.object({}),
        execute: () => 'seen',
      })
      const step1 = m.cold('10ms a-b-(cf|)', {
        a: { type: 'text' as const, text: 'Let ' },
        b: { type: 'text' as const, text: 'me' },
        c: { type: 'tool-call' as const, id: 'call-1', name: 'look', arguments: '{}' },
        f: { type: 'finish' as const, reason: 'tool-calls' as const },
      })
      const step2 = m.cold('10ms a-(bf|)', {
        a: { type: 'text' as const, text: 'Do' },
        b: { type: 'text' as const, text: 'ne' },
        f: { type: 'finish' as const, reason: 'stop' as const },
      })
      const { agent, drive } = scenario(m, { script: [step1, step2], tools: [look] })
      drive('-f', { f: (a) => a.followup('go') })
      const text$ = agent.text$.pipe(map(({ turn, step, text }) => `${turn}.${step}:${text}`))
      // biome-ignore format: marble alignment
      // Step 1 is requested at frame 1 and streams at 11 and 13; step 2 is requested at 15.
      m.expect(text$).toBeObservable('11ms a-b 11ms A-B', {
        a: '1.1:Let ', b: '1.1:Let me', A: '1.2:Do', B: '1.2:Done',
      })
    }),
  )

  it(
    'R82: bad input is typed and changes nothing: reply$ of an unknown id errors, sendTo with invalid options throws at call',
    marbles((m) => {
      const { agent, drive } = scenario(m, { script: [] })
      const errors: unknown[] = []
      drive('-ab', {
        a: (x) =>
          x.reply$('no-such-id' as AgentMessageId).subscribe({ error: (e: unknown) => errors.push(e) }),
        b: (x) => {
          try {
            sendTo(x, 'shout' as 'steer')
          } catch (error) {
            errors.push(error)
          }
        },
      })
      m.expect(withWindow(agent)).toBeObservable('c', { c: 'closed' })
      m.flush()
      expect(errors.map((e) => (e as Error).message)).toEqual([
        'reply$(): id: unknown id: this agent never returned it, and neither its transcript nor its journal holds it',
        "sendTo(): options: expected 'followup', 'steer', 'inject' or SendOptions ({target, wakeup}), got 'shout'",
      ])
      for (const e of errors) expect(e).toBeInstanceOf(InvalidInputError)
      expect(agent.session.events).toEqual([])
      expect(agent.inbox).toEqual({ queue: [], outbox: [] })
    }),
  )
})
