import { from, lastValueFrom, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { InvariantViolation } from '../../src/contracts/errors.js'
import type { AgentEvent } from '../../src/contracts/events.js'
import type { AgentStatus } from '../../src/contracts/messages.js'
import { statusAlternation } from '../../src/operators/statusAlternation.js'
import { enqueue, marbles, status } from './fixtures.js'

const repeated = (s: AgentStatus, agentId = 'a') =>
  new InvariantViolation(
    'R31',
    `agent '${agentId}': agent/status ${s} published twice in a row (each status event must be a transition)`,
  )

/** Value legend shared by the diagrams below. */
const v = {
  r: status('running'), //      agent a running
  i: status('idle'), //         agent a idle
  R: status('running', 'b'), // agent b running
  I: status('idle', 'b'), //    agent b idle
  e: enqueue('m1'), //          any other event (agent a)
} satisfies Record<string, AgentEvent>

describe('statusAlternation', () => {
  // biome-ignore format: marble alignment
  it('R31: completes at once on an empty source', marbles((m) => {
    const source = m.cold<AgentEvent>('|')
    const subs =                      '(^!)'
    const expected =                  '|'
    m.expect(source.pipe(statusAlternation())).toBeObservable(expected)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R31: never emits on a never source', marbles((m) => {
    const source = m.cold<AgentEvent>('-')
    const subs =                      '^'
    const expected =                  '-'
    m.expect(source.pipe(statusAlternation())).toBeObservable(expected)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R31: passes one status through', marbles((m) => {
    const source = m.cold('--r--|', v)
    const subs =          '^----!'
    const expected =      '--r--|'
    m.expect(source.pipe(statusAlternation())).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R31: running, idle, running is fine', marbles((m) => {
    const source = m.cold('-r-e-i-e-r-i-|', v)
    const subs =          '^------------!'
    const expected =      '-r-e-i-e-r-i-|'
    m.expect(source.pipe(statusAlternation())).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R31: the first status seen may be idle', marbles((m) => {
    const source = m.cold('-i-r-|', v)
    const expected =      '-i-r-|'
    m.expect(source.pipe(statusAlternation())).toBeObservable(expected, v)
  }))

  // biome-ignore format: marble alignment
  it('R31: two agents interleaved are fine', marbles((m) => {
    const source = m.cold('-r-R-i-e-I-r-R-|', v)
    const subs =          '^--------------!'
    const expected =      '-r-R-i-e-I-r-R-|'
    m.expect(source.pipe(statusAlternation())).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R31: idle published twice in a row errors', marbles((m) => {
    const source = m.cold('-r-i-i-r-|', v)
    const subs =          '^----!'
    const expected =      '-r-i-#'
    m.expect(source.pipe(statusAlternation())).toBeObservable(expected, v, repeated('idle'))
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R31: other events between two equal statuses do not matter', marbles((m) => {
    const source = m.cold('-r-e-R-I-e-r-|', v)
    const subs =          '^----------!'
    const expected =      '-r-e-R-I-e-#'
    m.expect(source.pipe(statusAlternation())).toBeObservable(expected, v, repeated('running'))
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R31: a repeat by the second agent names that agent', marbles((m) => {
    const source = m.cold('-R-r-R-|', v)
    const expected =      '-R-r-#'
    m.expect(source.pipe(statusAlternation())).toBeObservable(expected, v, repeated('running', 'b'))
  }))

  // biome-ignore format: marble alignment
  it('R31: a source error passes through', marbles((m) => {
    const boom = new Error('boom')
    const source = m.cold('--r--#', v, boom)
    const subs =          '^----!'
    const expected =      '--r--#'
    m.expect(source.pipe(statusAlternation())).toBeObservable(expected, v, boom)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R31: unsubscribing early unsubscribes from the source', marbles((m) => {
    const source = m.hot('--r--i--i--|', v)
    const subs =         '^-----!'
    const unsub =        '^-----!'
    const expected =     '--r--i-'
    m.expect(source.pipe(statusAlternation()), unsub).toBeObservable(expected, v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('R31: each subscription remembers its own last status', marbles((m) => {
    const source =  m.cold('-r-i-|', v)
    const subs =         [ '^----!',
                           '--^----!' ]
    const checked = source.pipe(statusAlternation())
    m.expect(checked).toBeObservable('-r-i-|', v)
    m.expect(checked, '--^').toBeObservable('---r-i-|', v)
    m.expect(source).toHaveSubscriptions(subs)
  }))

  it('R31: forwards the same event objects', async () => {
    const events = [v.r, v.e, v.i]
    const out = await lastValueFrom(from(events).pipe(statusAlternation(), toArray()))
    expect(out).toHaveLength(events.length)
    out.forEach((event, i) => {
      expect(event).toBe(events[i])
    })
  })
})
