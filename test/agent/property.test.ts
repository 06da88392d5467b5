/**
 * Property tests of the delivery contract through the public API, on virtual time: every agent
 * runs on a fresh `TestScheduler` (its wake and next moves too), and the scripted model answers
 * each request with a `cold(...)` stream, so model latency is virtual and runs are deterministic.
 */
import fc from 'fast-check'
import type { Observable } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import {
  type Agent,
  type AgentEvent,
  createAgent,
  inboxConservation,
  type ModelEvent,
  outstandingInbox,
  type PromptDecision,
  type SessionEvent,
  statusAlternation,
} from '../../src/index.js'
import { label, scriptedModel } from '../../src/testing.js'

type Entry = { readonly live: AgentEvent } | { readonly durable: SessionEvent }

type Run = {
  /** Live and durable events in the one global order (section 4). */
  readonly timeline: readonly Entry[]
  readonly events: readonly AgentEvent[]
  readonly transcript: readonly SessionEvent[]
  /** Errors of the invariant operators (R30, R31) or of the streams. */
  readonly errors: readonly unknown[]
  readonly completed: boolean
}

type Setup = {
  /** Frames each model request takes before it answers `ok` and finishes (cyclic). */
  readonly latencies: readonly number[]
  /** How many requests the script answers. */
  readonly requests: number
  /** With a `promptSubmit` hook: frames it takes, and its decisions (cyclic; true = allow). */
  readonly admission?: { readonly latency: number; readonly allow: readonly boolean[] }
}

/**
 * Runs one scenario on a fresh `TestScheduler`. `drive(agent, at, events)` schedules calls with
 * `at(frame, call)`; `events` are the live events so far.
 */
const runScenario = (
  { latencies, requests, admission }: Setup,
  drive: (agent: Agent, at: (frame: number, call: () => void) => void, events: readonly AgentEvent[]) => void,
): Run => {
  const scheduler = new TestScheduler((actual, expected) => expect(actual).toStrictEqual(expected))
  const timeline: Entry[] = []
  const events: AgentEvent[] = []
  const transcript: SessionEvent[] = []
  const errors: unknown[] = []
  let completed = false
  scheduler.run(({ cold }) => {
    const values: Record<string, ModelEvent> = {
      a: { type: 'text', text: 'ok' },
      f: { type: 'finish', reason: 'stop' },
    }
    const script = Array.from({ length: requests }, (_, i) => {
      const latency = latencies[i % latencies.length] ?? 0
      return cold(`${'-'.repeat(latency)}(af|)`, values)
    })
    let decisions = 0
    const promptSubmit = (): Observable<PromptDecision> => {
      const allow = admission?.allow[decisions++ % admission.allow.length] ?? true
      const decision: PromptDecision = allow ? { kind: 'allow' } : { kind: 'block', reason: 'no' }
      return cold(`${'-'.repeat(admission?.latency ?? 0)}(d|)`, { d: decision })
    }
    const hooks = admission ? { promptSubmit } : {}
    const agent = createAgent({ model: scriptedModel(script), scheduler, hooks })
    agent.events$.pipe(inboxConservation(), statusAlternation()).subscribe({
      next: (event) => {
        events.push(event)
        timeline.push({ live: event })
      },
      error: (error: unknown) => errors.push(error),
      complete: () => {
        completed = true
      },
    })
    agent.transcript$.subscribe({
      next: (event) => {
        transcript.push(event)
        timeline.push({ durable: event })
      },
      error: (error: unknown) => errors.push(error),
    })
    drive(agent, (frame, call) => scheduler.schedule(call, frame), events)
  })
  return { timeline, events, transcript, errors, completed }
}

const show = (run: Run): string =>
  run.timeline.map((e) => ('live' in e ? label(e.live) : `D ${label(e.durable)}`)).join('\n')

const statuses = (events: readonly AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'agent/status' ? [e.status] : []))

/** How many `dequeue` and `discard` entries name each id. */
const removals = (events: readonly AgentEvent[]): Map<string, number> => {
  const count = new Map<string, number>()
  const add = (id: string) => count.set(id, (count.get(id) ?? 0) + 1)
  for (const e of events) {
    if (e.type === 'agent/inbox/dequeue') add(e.message.id)
    if (e.type === 'agent/inbox/discard') for (const m of e.messages) add(m.id)
  }
  return count
}

const enqueues = (events: readonly AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'agent/inbox/enqueue' ? [e] : []))

/**
 * R7, R15, R23: turns never overlap and are numbered 1, 2, 3 …; steps nest in turns; everything
 * opened is closed. Returns the first problem, or `undefined`.
 */
const turnProblem = (transcript: readonly SessionEvent[]): string | undefined => {
  let turn: number | undefined
  let step: number | undefined
  let last = 0
  for (const e of transcript) {
    const at = `seq ${e.seq} ${e.type}`
    if (e.type === 'turn/start') {
      if (turn !== undefined || e.data.turn !== last + 1)
        return `${at} ${e.data.turn} (open: ${turn}, last: ${last})`
      turn = last = e.data.turn
    } else if (e.type === 'turn/end') {
      if (e.data.turn !== turn || step !== undefined) return `${at} ${e.data.turn} (open: ${turn}.${step})`
      turn = undefined
    } else if (e.type === 'step/start') {
      if (e.data.turn !== turn || step !== undefined)
        return `${at} ${e.data.turn}.${e.data.step} (open: ${turn}.${step})`
      step = e.data.step
    } else if (e.type === 'step/end') {
      if (e.data.turn !== turn || e.data.step !== step)
        return `${at} ${e.data.turn}.${e.data.step} (open: ${turn}.${step})`
      step = undefined
    } else if (e.type !== 'user/message' && turn === undefined) return `${at} outside a turn`
  }
  return turn === undefined ? undefined : `turn ${turn} never ended`
}

const latenciesArb = fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 1, maxLength: 6 })

describe('property A: bursts of followups (R6, R7, R9, R30, R31, V8)', () => {
  const groupArb = fc.record({
    count: fc.integer({ min: 1, max: 4 }),
    gap: fc.integer({ min: 0, max: 12 }),
  })
  const scenarioArb = fc.record({
    groups: fc.array(groupArb, { minLength: 1, maxLength: 8 }),
    latencies: latenciesArb,
  })

  it('R7/R9/R30/V8: the nth accepted followup opens turn n with one prompt; statuses alternate', () => {
    fc.assert(
      fc.property(scenarioArb, ({ groups, latencies }) => {
        const ids: string[] = []
        const total = groups.reduce((n, g) => n + g.count, 0)
        const run = runScenario({ latencies, requests: total }, (agent, at) => {
          let frame = 1
          for (const { count, gap } of groups) {
            at(frame, () => {
              for (let i = 0; i < count; i++) ids.push(agent.followup(`f${ids.length + 1}`))
            })
            frame += gap
          }
          at(frame + 10_000, () => {
            expect(agent.status).toBe('idle')
            expect(agent.acceptsNextStep).toBe(false)
          })
        })
        const context = show(run)
        expect(run.errors, context).toStrictEqual([])
        expect(ids).toHaveLength(total)
        expect([...ids].sort()).toStrictEqual(ids) // R3: ids sort in acceptance order

        // R9/R31: running, idle, running, idle … and idle at the end.
        const seen = statuses(run.events)
        expect(seen.length % 2, context).toBe(0)
        expect(seen, context).toStrictEqual(seen.map((_, i) => (i % 2 === 0 ? 'running' : 'idle')))

        // R7: the nth accepted item opens turn n; its prompt is right after turn/start, alone.
        const starts = run.transcript.flatMap((e, i) => (e.type === 'turn/start' ? [i] : []))
        expect(starts, context).toHaveLength(total)
        starts.forEach((at, n) => {
          const start = run.transcript[at]
          expect(start?.type === 'turn/start' && start.data).toStrictEqual({
            turn: n + 1,
            trigger: { kind: 'message', source: { kind: 'user' }, id: ids[n] },
          })
          const prompt = run.transcript[at + 1]
          expect(prompt?.type === 'user/message' && prompt.data.id, context).toBe(ids[n])
        })
        const prompts = run.transcript.filter((e) => e.type === 'user/message')
        expect(prompts.map((e) => e.type === 'user/message' && e.data.id)).toStrictEqual(ids)
        expect(turnProblem(run.transcript), context).toBeUndefined()

        // R9: idle only when no waking item is left; nothing but enqueues while idle.
        let outstanding = 0
        let status = 'idle'
        const problems: string[] = []
        run.timeline.forEach((entry, i) => {
          const e = 'live' in entry ? entry.live : undefined
          if (e?.type === 'agent/inbox/enqueue') outstanding++
          else if (e?.type === 'agent/inbox/dequeue') outstanding--
          else if (e?.type === 'agent/status') {
            status = e.status
            if (e.status === 'idle' && outstanding !== 0)
              problems.push(`#${i}: idle with ${outstanding} waiting`)
          } else if (status !== 'running') problems.push(`#${i}: event while idle`)
        })
        expect(problems, context).toStrictEqual([])

        // R30/V8: every id enqueued once, then dequeued exactly once; nothing discarded.
        expect(outstandingInbox(run.events).size).toBe(0)
        expect(enqueues(run.events).map((e) => [e.message.id, e.placement])).toStrictEqual(
          ids.map((id) => [id, 'queued']),
        )
        const dequeued = run.events.flatMap((e) => (e.type === 'agent/inbox/dequeue' ? [e.message.id] : []))
        expect(dequeued).toStrictEqual(ids)
        expect(run.events.some((e) => e.type === 'agent/inbox/discard')).toBe(false)
      }),
      { numRuns: 250 },
    )
  })
})

type Op =
  | { readonly kind: 'followup' | 'steer' | 'inject' | 'parked' }
  | { readonly kind: 'cancel'; readonly cause: 'user' | 'parent'; readonly keepInbox: boolean }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'followup' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'steer' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'inject' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'parked' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      cause: fc.constantFrom('user' as const, 'parent' as const),
      keepInbox: fc.boolean(),
    }),
  },
)

describe('property B: mixed sends and cancels (R25–R31, V1, V7, V8)', () => {
  const groupArb = fc.record({
    ops: fc.array(opArb, { minLength: 1, maxLength: 3 }),
    gap: fc.integer({ min: 0, max: 12 }),
  })
  const scenarioArb = fc.record({
    groups: fc.array(groupArb, { minLength: 1, maxLength: 10 }),
    latencies: latenciesArb,
    admission: fc.option(
      fc.record({
        latency: fc.integer({ min: 0, max: 6 }),
        allow: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
      }),
      { nil: undefined },
    ),
    /** dispose() right after the last group, while work may still run, instead of at rest. */
    disposeEarly: fc.boolean(),
  })

  it('R30/R31/V1/V8: every id is accounted for, turns balance, and the agent comes to rest', () => {
    fc.assert(
      fc.property(scenarioArb, ({ groups, latencies, admission, disposeEarly }) => {
        const sent = new Map<string, Op['kind']>()
        let atRest: { status: string; window: boolean; outstanding: readonly string[] } | undefined
        const ops = groups.reduce((n, g) => n + g.ops.length, 0)
        const setup = { latencies, requests: 4 * ops + 4, ...(admission ? { admission } : {}) }
        const run = runScenario(setup, (agent, at, events) => {
          let frame = 1
          const perform = (op: Op) => {
            const text = `${op.kind}${sent.size + 1}`
            switch (op.kind) {
              case 'followup':
                return sent.set(agent.followup(text), op.kind)
              case 'steer':
                return sent.set(agent.steer(text), op.kind)
              case 'inject':
                return sent.set(agent.inject(text), op.kind)
              case 'parked':
                return sent.set(agent.send(text, { target: 'next-turn', wakeup: false }), op.kind)
              case 'cancel':
                return agent.cancel({ kind: op.cause }, { keepInbox: op.keepInbox })
            }
          }
          for (const group of groups) {
            at(frame, () => {
              for (const op of group.ops) perform(op)
            })
            frame += group.gap
          }
          if (disposeEarly) return at(frame, () => void agent.dispose())
          at(frame + 10_000, () => {
            atRest = {
              status: agent.status,
              window: agent.acceptsNextStep,
              outstanding: [...(outstandingInbox(events).get(agent.id) ?? [])],
            }
            void agent.dispose()
          })
        })
        const context = show(run)
        expect(run.errors, context).toStrictEqual([])
        expect(run.completed, context).toBe(true)
        expect(atRest === undefined, context).toBe(disposeEarly)
        // R28: quiescent before dispose(): idle, window closed, nothing waking left.
        if (atRest) expect(atRest.status, context).toBe('idle')
        if (atRest) expect(atRest.window).toBe(false)
        // R8/R13c: what is left outstanding at rest is parked, or leftover steering.
        const restPlacement = new Map(enqueues(run.events).map((e) => [e.message.id as string, e.placement]))
        for (const id of atRest?.outstanding ?? []) {
          const parked = sent.get(id) === 'parked'
          expect(
            parked || restPlacement.get(id) === 'steering',
            `${id} left waking at rest\n${context}`,
          ).toBe(true)
        }
        expect(statuses(run.events).at(-1) ?? 'idle').toBe('idle')

        // R30/V7: once disposed, nothing is outstanding.
        expect(outstandingInbox(run.events).size, context).toBe(0)
        expect(turnProblem(run.transcript), context).toBeUndefined()

        // V8: each queued/steering id: one enqueue, then exactly one dequeue or discard.
        const enqueued = enqueues(run.events)
        const removed = removals(run.events)
        const placement = new Map(enqueued.map((e) => [e.message.id as string, e.placement]))
        for (const [id, kind] of sent) {
          const count = enqueued.filter((e) => e.message.id === id).length
          if (kind === 'inject') {
            expect(count, `${id} (inject) has no inbox event`).toBe(0)
            expect(removed.get(id) ?? 0).toBe(0)
          } else {
            expect(count, `${id} (${kind}) is enqueued once`).toBe(1)
            expect(removed.get(id), `${id} (${kind}) is dequeued or discarded once\n${context}`).toBe(1)
          }
          // R5: followups and parked sends are never steering.
          if (kind === 'followup' || kind === 'parked') expect(placement.get(id)).toBe('queued')
        }

        // V1/V8: every inject is appended exactly once; prompts and steering keep their ids.
        const userIds = run.transcript.flatMap((e) =>
          e.type === 'user/message' && e.data.id ? [e.data.id] : [],
        )
        const steeringIds = run.transcript.flatMap((e) => (e.type === 'steering/message' ? [e.data.id] : []))
        for (const [id, kind] of sent) {
          const asUser = userIds.filter((u) => u === id).length
          const asSteering = steeringIds.filter((u) => u === id).length
          if (kind === 'inject') expect(asUser, `${id} (inject) appended once\n${context}`).toBe(1)
          else if (placement.get(id) === 'steering') {
            expect(asUser).toBe(0)
            expect(asSteering).toBe(
              run.events.some((e) => e.type === 'agent/inbox/dequeue' && e.message.id === id) ? 1 : 0,
            )
          } else {
            expect(asSteering).toBe(0)
            expect(asUser).toBeLessThanOrEqual(1)
          }
        }
        // R7: admitted prompts run in acceptance order.
        const prompts = userIds.filter((id) => sent.get(id) !== 'inject')
        expect([...prompts].sort()).toStrictEqual(prompts)

        // Every turn settles once, right after its end (no retries here).
        const ends = run.events
          .filter((e) => e.type === 'agent/settled')
          .map((e) => e.type === 'agent/settled' && e.turn)
        const turnEnds = run.transcript.flatMap((e) => (e.type === 'turn/end' ? [e.data.turn] : []))
        expect(ends).toStrictEqual(turnEnds)
      }),
      { numRuns: 250 },
    )
  })
})
