import { ignoreElements, Subject } from 'rxjs'
import { describe, it } from 'vitest'
import { z } from 'zod'
import type { PromptDecision } from '../src/contracts/hooks.js'
import type { AgentMessageId } from '../src/contracts/messages.js'
import { inboxConservation } from '../src/operators/inboxConservation.js'
import type { ScriptedReply } from '../src/testing.js'
import { defineTool } from '../src/tools/defineTool.js'
import { allowAfter, callTools, expectTimeline, marbles, scenario } from './harness.js'

type Context = Parameters<Parameters<typeof marbles>[0]>[0]

/** Remembers the ids that sends return, so that a later frame of a diagram can name them. */
const ids = () => {
  const known = new Map<string, AgentMessageId>()
  return {
    keep: (name: string, id: AgentMessageId): void => void known.set(name, id),
    of: (name: string): AgentMessageId => known.get(name) as AgentMessageId,
  }
}

/**
 * Calls made from subscribers that may be refused: each outcome goes on `refused` as a label
 * (`accepted`, or the error's name with its `expected,current` or `limit`) at the frame of the
 * call, so that a refusal sits on a diagram beside the events.
 */
const refusals = (m: Context) => {
  const refused = new Subject<string>()
  return {
    attempt: (call: () => unknown): void => {
      try {
        call()
        refused.next('accepted')
      } catch (error) {
        const e = error as Error & { expected?: number; current?: number | null; limit?: number }
        refused.next(`${e.name}(${e.limit !== undefined ? e.limit : `${e.expected},${e.current}`})`)
      }
    },
    expectRefused: (diagram: string, values: Record<string, string>) =>
      m.expect(refused).toBeObservable(diagram, values),
  }
}

// Each promptSubmit decision and each model reply takes 10 frames unless said otherwise. A group
// `(abc)` sits at one frame and its characters advance the clock.
describe('promote (R46)', () => {
  it(
    'R46, R12: promoted while its admission decides, a queued item becomes steering of that admission and enters after the prompt',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1']
      const promptSubmit = () => allowAfter(m, 20)
      const { agent, drive } = scenario(m, { script, hooks: { promptSubmit } })
      const id = ids()
      // biome-ignore format: marble alignment
      drive(                   '-f-----q----P', {
        f: (a) => a.followup('go'),
        q: (a) => id.keep('q', a.followup('q')),
        P: (a) => a.promote(id.of('q')),
      })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erd)-Q 4ms (DS) 5ms (tuDsp) 3ms (aEnxi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', Q: 'enqueue(q,queued)', D: 'dequeue(q)',
        S: 'enqueue(q,steering)', t: 'turn/start(1)', u: 'user(go)', s: 'steering(q)', p: 'step/start(1.1)',
        a: 'assistant(A1)', E: 'step/end(1.1)', n: 'turn/end(1,completed)', x: 'settled(1,completed)',
        i: 'idle',
      })
    }),
  )

  it(
    'R46, R21: promoted while a tool batch runs, between two of its results, it enters after the whole batch',
    marbles((m) => {
      const lookup = defineTool({
        name: 'lookup',
        description: 'Looks a word up.',
        parameters: z.object({ q: z.string() }),
        execute: ({ q }) => m.cold('10ms (r|)', { r: `result-${q}` }),
      })
      const calls = callTools([
        ['lookup', '{"q":"a"}'],
        ['lookup', '{"q":"b"}'],
      ])
      const script: ScriptedReply[] = [calls, 'A2']
      const { agent, drive } = scenario(m, { script, tools: [lookup] })
      const id = ids()
      // The batch runs from frame 11: call-1 answers at 21, call-2 at 31; the promote is at 25.
      // biome-ignore format: marble alignment
      drive(                   '-f 8ms q 14ms P', {
        f: (a) => a.followup('go'),
        q: (a) => id.keep('q', a.followup('q')),
        P: (a) => a.promote(id.of('q')),
      })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)-Qa 9ms (CR)(DS)--(CKDsEP)--(AFNxi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', t: 'turn/start(1)', u: 'user(go)',
        p: 'step/start(1.1)', Q: 'enqueue(q,queued)', a: 'assistant(lookup())', C: 'tool/call(lookup)',
        R: 'tool/result(call-1)', D: 'dequeue(q)', S: 'enqueue(q,steering)', K: 'tool/result(call-2)',
        s: 'steering(q)', E: 'step/end(1.1)', P: 'step/start(1.2)', A: 'assistant(A2)', F: 'step/end(1.2)',
        N: 'turn/end(1,completed)', x: 'settled(1,completed)', i: 'idle',
      })
    }),
  )
})

describe('replace (R44)', () => {
  it(
    'R44, R6: replaced in the same synchronous stack as its followup, before the wake claims it, the new text runs',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1']
      const { agent, drive } = scenario(m, { script })
      drive('-f', {
        f: (a) => {
          const id = a.followup('old')
          a.replace(id, 'new')
        },
      })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(eRrdtup)-(aEnxi)', {
        e: 'enqueue(old,queued)', R: 'replace(new)', r: 'running', d: 'dequeue(new)', t: 'turn/start(1)',
        u: 'user(new)', p: 'step/start(1.1)', a: 'assistant(A1)', E: 'step/end(1.1)',
        n: 'turn/end(1,completed)', x: 'settled(1,completed)', i: 'idle',
      })
    }),
  )

  it(
    'R44, R41, R10: replaced from a running subscriber, while the claim is dequeuing it, it no longer waits: nothing happens, the old text runs',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1']
      const { agent, drive } = scenario(m, { script })
      const id = ids()
      agent.events$.subscribe((event) => {
        if (event.type === 'agent/status' && event.status === 'running') agent.replace(id.of('old'), 'new')
      })
      drive('-f', { f: (a) => id.keep('old', a.followup('old')) })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)--(aEnxi)', {
        e: 'enqueue(old,queued)', r: 'running', d: 'dequeue(old)', t: 'turn/start(1)', u: 'user(old)',
        p: 'step/start(1.1)', a: 'assistant(A1)', E: 'step/end(1.1)', n: 'turn/end(1,completed)',
        x: 'settled(1,completed)', i: 'idle',
      })
    }),
  )
})

describe('remove (R43)', () => {
  it(
    'R43, R20a: steering staged at a step boundary (while the next step hook runs) and removed there is discarded and never drained',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1', 'A2']
      // Step 2's hook takes 15 frames (11 to 26): the boundary where s2 is staged and removed.
      const step = ({ step }: { step: number }) =>
        step === 2 ? m.cold('15ms (a|)', { a: undefined }) : undefined
      const { agent, drive } = scenario(m, { script, hooks: { step } })
      const id = ids()
      // biome-ignore format: marble alignment
      drive(                   '-f 7ms s 8ms t--r', {
        f: (a) => a.followup('go'),
        s: (a) => a.steer('s1'),
        t: (a) => id.keep('s2', a.steer('s2')),
        r: (a) => a.remove(id.of('s2')),
      })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)S-(aDsE)-T--X 4ms P 9ms (AFNxi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', t: 'turn/start(1)', u: 'user(go)',
        p: 'step/start(1.1)', S: 'enqueue(s1,steering)', a: 'assistant(A1)', D: 'dequeue(s1)',
        s: 'steering(s1)', E: 'step/end(1.1)', T: 'enqueue(s2,steering)', X: 'discard:removed(s2)',
        P: 'step/start(1.2)', A: 'assistant(A2)', F: 'step/end(1.2)', N: 'turn/end(1,completed)',
        x: 'settled(1,completed)', i: 'idle',
      })
    }),
  )

  it(
    "R43, R20b: a remove made while the step's last result is delivered comes after that step's drain: the steering was written, nothing happens",
    marbles((m) => {
      const script: ScriptedReply[] = ['A1', 'A2']
      const { agent, drive } = scenario(m, { script })
      const id = ids()
      agent.transcript$.subscribe((event) => {
        if (event.type === 'assistant/message' && event.data.step === 1) agent.remove(id.of('s1'))
      })
      // biome-ignore format: marble alignment
      drive(                   '-f 7ms s', {
        f: (a) => a.followup('go'),
        s: (a) => id.keep('s1', a.steer('s1')),
      })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)S-(aDsEP)---(AFNxi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', t: 'turn/start(1)', u: 'user(go)',
        p: 'step/start(1.1)', S: 'enqueue(s1,steering)', a: 'assistant(A1)', D: 'dequeue(s1)',
        s: 'steering(s1)', E: 'step/end(1.1)', P: 'step/start(1.2)', A: 'assistant(A2)',
        F: 'step/end(1.2)', N: 'turn/end(1,completed)', x: 'settled(1,completed)', i: 'idle',
      })
    }),
  )
})

describe("ifBusy: 'interrupt' (R47)", () => {
  it(
    'R47, R13b: interrupting promptSubmit cancels the admission, its prompt goes back behind the interrupting item, which runs next with no idle; then the rest in order',
    marbles((m) => {
      const script: ScriptedReply[] = ['U', 'P', 'Q']
      const promptSubmit = () => allowAfter(m, 10)
      const { agent, drive, expectEvents, expectTranscript } = scenario(m, {
        script,
        hooks: { promptSubmit },
      })
      // p's promptSubmit decides from frame 1 to 11; u interrupts it at frame 7.
      // biome-ignore format: marble alignment
      drive(           '-f----qu', {
        f: (a) => a.followup('p'),
        q: (a) => a.followup('q'),
        u: (a) => a.followup('u', { ifBusy: 'interrupt' }),
      })
      // P twice: p's first enqueue, then its requeue right behind u (R30 holds, see below).
      // biome-ignore format: marble alignment
      expectEvents(    '-(Prd)Q(UcPD) 14ms (xE) 16ms (yF) 16ms (zi)', {
        P: 'enqueue(p,queued)', r: 'running', d: 'dequeue(p)', Q: 'enqueue(q,queued)',
        U: 'enqueue(u,queued)', c: 'cancel(user)', D: 'dequeue(u)', x: 'settled(1,completed)',
        E: 'dequeue(p)', y: 'settled(2,completed)', F: 'dequeue(q)', z: 'settled(3,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('17ms (1us) 5ms (aex) 5ms (2pS) 5ms (bfy) 5ms (3qR) 5ms (cgz)', {
        1: 'turn/start(1)', u: 'user(u)', s: 'step/start(1.1)', a: 'assistant(U)', e: 'step/end(1.1)',
        x: 'turn/end(1,completed)', 2: 'turn/start(2)', p: 'user(p)', S: 'step/start(2.1)',
        b: 'assistant(P)', f: 'step/end(2.1)', y: 'turn/end(2,completed)', 3: 'turn/start(3)', q: 'user(q)',
        R: 'step/start(3.1)', c: 'assistant(Q)', g: 'step/end(3.1)', z: 'turn/end(3,completed)',
      })
      m.expect(agent.events$.pipe(inboxConservation(), ignoreElements())).toBeObservable('')
    }),
  )
})

describe('turn guard (R49)', () => {
  it(
    'R49, R19: at the edge of turn/end — a guarded steer from a turn/end subscriber finds the window closed (TurnMismatchError), one staged before expires, and neither reaches the next turn',
    marbles((m) => {
      const failing = m.cold('10ms #', {}, new Error('model down'))
      const script: ScriptedReply[] = [failing, { text: 'A2', delay: 20 }]
      const { agent, drive } = scenario(m, { script })
      const { attempt, expectRefused } = refusals(m)
      agent.transcript$.subscribe((event) => {
        if (event.type === 'turn/end' && event.data.turn === 1)
          attempt(() => agent.steer('late', { turn: 1 }))
      })
      // The failed step skips its drains (R20), so 'only 1' is still staged at turn/end.
      // biome-ignore format: marble alignment
      drive(                   '-f 7ms gn', {
        f: (a) => a.followup('go'),
        g: (a) => a.steer('only 1', { turn: 1 }),
        n: (a) => a.followup('next'),
      })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtup)GQ(EzNXyDTUP) 9ms (aFMYi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', t: 'turn/start(1)', u: 'user(go)',
        p: 'step/start(1.1)', G: 'enqueue(only 1,steering)', Q: 'enqueue(next,queued)', E: 'step/end(1.1)',
        z: 'error(1.1)', N: 'turn/end(1,error)', X: 'discard:expired(only 1)', y: 'settled(1,error)',
        D: 'dequeue(next)', T: 'turn/start(2)', U: 'user(next)', P: 'step/start(2.1)', a: 'assistant(A2)',
        F: 'step/end(2.1)', M: 'turn/end(2,completed)', Y: 'settled(2,completed)', i: 'idle',
      })
      expectRefused('11ms m', { m: 'TurnMismatchError(1,null)' })
    }),
  )
})

describe('bound (R48)', () => {
  it(
    'R48: two sends from one subscriber — the first still waits in the trampoline and counts, the second is refused with InboxFullError',
    marbles((m) => {
      const script: ScriptedReply[] = ['A1', 'A2']
      const { agent, drive } = scenario(m, { script, maxQueued: 1 })
      const { attempt, expectRefused } = refusals(m)
      agent.transcript$.subscribe((event) => {
        if (event.type !== 'turn/start' || event.data.turn !== 1) return
        attempt(() => agent.followup('x'))
        attempt(() => agent.followup('y'))
      })
      drive('-f', { f: (a) => a.followup('go') })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erdtuXp)-(aEnxDTUP)(AFNyi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', t: 'turn/start(1)', u: 'user(go)',
        X: 'enqueue(x,queued)', p: 'step/start(1.1)', a: 'assistant(A1)', E: 'step/end(1.1)',
        n: 'turn/end(1,completed)', x: 'settled(1,completed)', D: 'dequeue(x)', T: 'turn/start(2)',
        U: 'user(x)', P: 'step/start(2.1)', A: 'assistant(A2)', F: 'step/end(2.1)',
        N: 'turn/end(2,completed)', y: 'settled(2,completed)', i: 'idle',
      })
      expectRefused('-(af)', { a: 'accepted', f: 'InboxFullError(1)' })
    }),
  )
})

// A defect these scenarios found: this one FAILS on the code as it is (see the commit that added it).
describe('regressions: defects these rows found', () => {
  it(
    'R12, R43: removing an inherited steer during the next admission does not pull a steer accepted during that admission ahead of the prompt',
    marbles((m) => {
      const decisions: PromptDecision[] = [{ kind: 'block', reason: 'not now' }, { kind: 'allow' }]
      let calls = 0
      const promptSubmit = () => allowAfter(m, 10, decisions[calls++])
      const script: ScriptedReply[] = ['A1']
      const { agent, drive } = scenario(m, { script, hooks: { promptSubmit } })
      const id = ids()
      // p1 is blocked with s0 staged, so s0 is p2's inherited prefix (R13); s1 arrives during p2's
      // admission (13 to 23), then s0 is removed.
      // biome-ignore format: marble alignment
      drive(                   '-p----s 6ms P 4ms t-r', {
        p: (a) => a.followup('p1'),
        s: (a) => id.keep('s0', a.steer('s0')),
        P: (a) => a.followup('p2'),
        t: (a) => a.steer('s1'),
        r: (a) => a.remove(id.of('s0')),
      })
      // biome-ignore format: marble alignment
      expectTimeline(agent, '-(erd)S 4ms i-(ErF)T-X--(tuDsp) 3ms (aGnxi)', {
        e: 'enqueue(p1,queued)', r: 'running', d: 'dequeue(p1)', S: 'enqueue(s0,steering)', i: 'idle',
        E: 'enqueue(p2,queued)', F: 'dequeue(p2)', T: 'enqueue(s1,steering)', X: 'discard:removed(s0)',
        t: 'turn/start(1)', u: 'user(p2)', D: 'dequeue(s1)', s: 'steering(s1)', p: 'step/start(1.1)',
        a: 'assistant(A1)', G: 'step/end(1.1)', n: 'turn/end(1,completed)', x: 'settled(1,completed)',
      })
    }),
  )
})
