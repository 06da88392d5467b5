import { from, lastValueFrom, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../src/contracts/errors.js'
import type { AgentEvent, SessionEvent } from '../../src/contracts/events.js'
import { ofType } from '../../src/operators/ofType.js'
import { dequeue, enqueue, marbles, status } from './fixtures.js'

/** Value legend shared by the diagrams below. */
const v = {
  s: status('running'), // agent/status
  t: status('idle'), //    agent/status
  e: enqueue('m1'), //     agent/inbox/enqueue
  d: dequeue('m1'), //     agent/inbox/dequeue
} satisfies Record<string, AgentEvent>

describe('ofType', () => {
  // biome-ignore format: marble alignment
  it('completes at once on an empty source', marbles((m) => {
    const source = m.cold<AgentEvent>('|')
    const subs =                      '(^!)'
    const expected =                  '|'
    m.expect<AgentEvent>(source.pipe(ofType('agent/status'))).toBeObservable(expected)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('never emits on a never source', marbles((m) => {
    const source = m.cold<AgentEvent>('-')
    const subs =                      '^'
    const expected =                  '-'
    m.expect<AgentEvent>(source.pipe(ofType('agent/status'))).toBeObservable(expected)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('passes one matching event through', marbles((m) => {
    const source = m.cold('--s--|', v)
    const subs =          '^----!'
    const expected =      '--s--|'
    m.expect<AgentEvent>(source.pipe(ofType('agent/status'))).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('drops one event of another type', marbles((m) => {
    const source = m.cold('--e--|', v)
    const expected =      '-----|'
    m.expect<AgentEvent>(source.pipe(ofType('agent/status'))).toBeObservable(expected, v)
  }))

  // biome-ignore format: marble alignment
  it('keeps the events of any of the given types, in order', marbles((m) => {
    const source = m.cold('-s-e-d-t-e-d-|', v)
    const subs =          '^------------!'
    const expected =      '-s---d-t---d-|'
    m.expect<AgentEvent>(source.pipe(ofType('agent/status', 'agent/inbox/dequeue'))).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('a source error passes through', marbles((m) => {
    const boom = new Error('boom')
    const source = m.cold('-s-e-#', v, boom)
    const subs =          '^----!'
    const expected =      '-s---#'
    m.expect<AgentEvent>(source.pipe(ofType('agent/status'))).toBeObservable(expected, v, boom)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('unsubscribing early unsubscribes from the source', marbles((m) => {
    const source = m.hot('--s--e--t--|', v)
    const subs =         '^-----!'
    const unsub =        '^-----!'
    const expected =     '--s----'
    m.expect<AgentEvent>(source.pipe(ofType('agent/status')), unsub).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  it('forwards the same event objects', async () => {
    const out = await lastValueFrom(from([v.s, v.e, v.t]).pipe(ofType('agent/status'), toArray()))
    expect(out).toHaveLength(2)
    expect(out[0]).toBe(v.s)
    expect(out[1]).toBe(v.t)
  })

  it('works on durable session events', async () => {
    const events: SessionEvent[] = [
      { seq: 1, type: 'turn/start', data: { turn: 1, trigger: { kind: 'retry' } } },
      { seq: 2, type: 'step/start', data: { turn: 1, step: 1 } },
      { seq: 3, type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
    ]
    const out = await lastValueFrom(from(events).pipe(ofType('turn/start', 'turn/end'), toArray()))
    expect(out.map((e) => e.seq)).toStrictEqual([1, 3])
  })

  it('throws a TypeError at call time when called with no type', () => {
    // @ts-expect-error: at least one type is required
    const call = () => ofType()
    expect(call).toThrow(TypeError)
    expect(call).toThrow(InvalidInputError)
    expect(call).toThrow("ofType(): types: expected at least one event type, e.g. ofType('agent/status')")
  })

  it('throws a TypeError at call time for a type that is not a string', () => {
    // @ts-expect-error: types are strings
    expect(() => ofType('agent/status', 42)).toThrow('ofType(): types[1]: expected string')
  })
})
