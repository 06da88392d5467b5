import { from, lastValueFrom, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { InvariantViolation } from '../../src/contracts/errors.js'
import type { AgentEvent } from '../../src/contracts/events.js'
import { inboxConservation } from '../../src/operators/inboxConservation.js'
import { dequeue, discard, enqueue, marbles, status } from './fixtures.js'

const notOutstanding = (type: string, id: string, agentId = 'a') =>
  new InvariantViolation(
    'R30',
    `agent '${agentId}': ${type} of message ${id}, which is not outstanding ` +
      '(it was never enqueued, or was already dequeued or discarded)',
  )

/** Value legend shared by the diagrams below. */
const v = {
  e: enqueue('m1'), //  enqueue m1 (agent a)
  f: enqueue('m2'), //  enqueue m2 (agent a)
  g: enqueue('m3'), //  enqueue m3 (agent a)
  d: dequeue('m1'), //  dequeue m1 (agent a)
  x: discard(['m2', 'm3']), // discard [m2, m3] (agent a)
  y: discard(['m2']), //  discard [m2] (agent a)
  z: discard([]), //  discard [] (agent a)
  w: discard(['m2', 'm2']), //  discard [m2, m2] (agent a)
  r: status('running'),
  i: status('idle'),
  E: enqueue('m1', 'b'), // enqueue m1 (agent b)
  D: dequeue('m1', 'b'), // dequeue m1 (agent b)
} satisfies Record<string, AgentEvent>

describe('inboxConservation', () => {
  // biome-ignore format: marble alignment
  it('R30: completes at once on an empty source', marbles((m) => {
    const source = m.cold<AgentEvent>('|')
    const subs =                      '(^!)'
    const expected =                  '|'
    m.expect(source.pipe(inboxConservation())).toBeObservable(expected)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: never emits on a never source', marbles((m) => {
    const source = m.cold<AgentEvent>('-')
    const subs =                      '^'
    const expected =                  '-'
    m.expect(source.pipe(inboxConservation())).toBeObservable(expected)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: passes one enqueue through', marbles((m) => {
    const source = m.cold('--e--|', v)
    const subs =          '^----!'
    const expected =      '--e--|'
    m.expect(source.pipe(inboxConservation())).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: passes a valid enqueue/dequeue/discard sequence through, idle included', marbles((m) => {
    const source = m.cold('-e-r-f-g-d-x-i-e-d-i-|', v)
    const subs =          '^--------------------!'
    const expected =      '-e-r-f-g-d-x-i-e-d-i-|'
    m.expect(source.pipe(inboxConservation())).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: idle with parked items outstanding is not a violation', marbles((m) => {
    const source = m.cold('-e-f-r-d-i-|', v)
    const subs =          '^----------!'
    const expected =      '-e-f-r-d-i-|'
    m.expect(source.pipe(inboxConservation())).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: a source error passes through', marbles((m) => {
    const boom = new Error('boom')
    const source = m.cold('--e--#', v, boom)
    const subs =          '^----!'
    const expected =      '--e--#'
    m.expect(source.pipe(inboxConservation())).toBeObservable(expected, v, boom)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: unsubscribing early unsubscribes from the source', marbles((m) => {
    const source = m.hot('--e--f--d--|', v)
    const subs =         '^-----!'
    const unsub =        '^-----!'
    const expected =     '--e--f-'
    m.expect(source.pipe(inboxConservation()), unsub).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: a dequeue without an enqueue errors', marbles((m) => {
    const source = m.cold('--d--|', v)
    const subs =          '^-!'
    const expected =      '--#'
    m.expect(source.pipe(inboxConservation()))
      .toBeObservable(expected, v, notOutstanding('agent/inbox/dequeue', 'm1'))
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: a second dequeue of the same id errors', marbles((m) => {
    const source = m.cold('-e-d-d-|', v)
    const subs =          '^----!'
    const expected =      '-e-d-#'
    m.expect(source.pipe(inboxConservation()))
      .toBeObservable(expected, v, notOutstanding('agent/inbox/dequeue', 'm1'))
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: a discard of an id never enqueued errors', marbles((m) => {
    const source = m.cold('-f-x-|', v)
    const subs =          '^--!'
    const expected =      '-f-#'
    m.expect(source.pipe(inboxConservation()))
      .toBeObservable(expected, v, notOutstanding('agent/inbox/discard', 'm3'))
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: a dequeue after a discard of the same id errors', marbles((m) => {
    const source = m.cold('-e-f-g-x-d-x-|', v)
    const subs =          '^----------!'
    const expected =      '-e-f-g-x-d-#'
    m.expect(source.pipe(inboxConservation()))
      .toBeObservable(expected, v, notOutstanding('agent/inbox/discard', 'm2'))
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: an id named twice in one discard errors', marbles((m) => {
    const source = m.cold('-f-w-|', v)
    const subs =          '^--!'
    const expected =      '-f-#'
    m.expect(source.pipe(inboxConservation()))
      .toBeObservable(expected, v, notOutstanding('agent/inbox/discard', 'm2'))
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: an empty discard batch errors', marbles((m) => {
    const source = m.cold('-e-z-|', v)
    const subs =          '^--!'
    const expected =      '-e-#'
    const error = new InvariantViolation(
      'R30',
      "agent 'a': agent/inbox/discard with an empty batch (a discard names at least one message)",
    )
    m.expect(source.pipe(inboxConservation())).toBeObservable(expected, v, error)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: enqueueing an outstanding id again errors', marbles((m) => {
    const source = m.cold('-e-e-|', v)
    const subs =          '^--!'
    const expected =      '-e-#'
    const error = new InvariantViolation(
      'R30',
      "agent 'a': agent/inbox/enqueue of message m1, which is already outstanding (each id is enqueued once)",
    )
    m.expect(source.pipe(inboxConservation())).toBeObservable(expected, v, error)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R30: outstanding ids are per agent', marbles((m) => {
    const ok =  m.cold('-e-E-D-d-|', v)
    const bad = m.cold('-e-D-|', v)
    m.expect(ok.pipe(inboxConservation())).toBeObservable('-e-E-D-d-|', v)
    m.expect(bad.pipe(inboxConservation()))
      .toBeObservable('-e-#', v, notOutstanding('agent/inbox/dequeue', 'm1', 'b'))
  }))

  // biome-ignore format: marble alignment
  it('R30: each subscription keeps its own outstanding ids', marbles((m) => {
    const source =  m.cold('-e-d-|', v)
    const subs =         [ '^----!',
                           '--^----!' ]
    const checked = source.pipe(inboxConservation())
    m.expect(checked).toBeObservable('-e-d-|', v)
    m.expect(checked, '--^').toBeObservable('---e-d-|', v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  it('R30: forwards the same event objects', async () => {
    const events = [v.e, v.r, v.d, v.i]
    const out = await lastValueFrom(from(events).pipe(inboxConservation(), toArray()))
    expect(out).toHaveLength(events.length)
    out.forEach((event, i) => {
      expect(event).toBe(events[i])
    })
  })

  // Speed is measured in bench/, never asserted here (shared, noisy machines).
  it('R30: passes 100k enqueues then 100k dequeues through unchanged', async () => {
    const n = 100_000
    const ids = Array.from({ length: n }, (_, i) => `m${i}`)
    const events = [...ids.map((id) => enqueue(id)), ...ids.map((id) => dequeue(id))]
    const out = await lastValueFrom(from(events).pipe(inboxConservation(), toArray()))
    expect(out).toHaveLength(2 * n)
  })
})
