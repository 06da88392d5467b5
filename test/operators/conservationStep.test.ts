import { describe, expect, it } from 'vitest'
import { InvariantViolation } from '../../src/contracts/errors.js'
import type { AgentEvent } from '../../src/contracts/events.js'
import type { AgentMessage, AgentMessageId, AgentStatus } from '../../src/contracts/messages.js'
import {
  type ConservationState,
  conservationStep,
  emptyConservationState,
  outstandingInbox,
} from '../../src/operators/conservationStep.js'

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

const message = (id: string): AgentMessage => ({
  id: id as AgentMessageId,
  content: [{ type: 'text', text: 'x' }],
  source: { kind: 'user' },
})
const enqueue = (id: string, agentId = 'a'): AgentEvent =>
  deepFreeze({ type: 'agent/inbox/enqueue', agentId, message: message(id), placement: 'steering' })
const dequeue = (id: string, agentId = 'a'): AgentEvent =>
  deepFreeze({ type: 'agent/inbox/dequeue', agentId, message: message(id) })
const discard = (ids: readonly string[], agentId = 'a'): AgentEvent =>
  deepFreeze({ type: 'agent/inbox/discard', agentId, messages: ids.map(message), reason: 'cancel' })
const status = (s: AgentStatus, agentId = 'a'): AgentEvent =>
  deepFreeze({ type: 'agent/status', agentId, status: s })

/** Outstanding ids as a plain record, e.g. `{ a: ['m1'] }`: easy to read in a table. */
type Plain = Readonly<Record<string, readonly string[]>>
const state = (plain: Plain): ConservationState =>
  new Map(Object.entries(plain).map(([agentId, ids]) => [agentId, new Set(ids as readonly AgentMessageId[])]))
const plain = (s: ConservationState): Plain =>
  Object.fromEntries([...s].map(([agentId, ids]) => [agentId, [...ids].sort()]))

const notOutstanding = (type: string, id: string, agentId = 'a') =>
  `agent '${agentId}': ${type} of message ${id}, which is not outstanding ` +
  '(it was never enqueued, or was already dequeued or discarded)'

describe('conservationStep', () => {
  const applied: readonly (readonly [string, Plain, AgentEvent, Plain])[] = [
    ['R30: enqueue adds the id', {}, enqueue('m1'), { a: ['m1'] }],
    ['R30: enqueue adds beside other ids', { a: ['m1'] }, enqueue('m2'), { a: ['m1', 'm2'] }],
    ['R30: ids are per agent', { a: ['m1'] }, enqueue('m1', 'b'), { a: ['m1'], b: ['m1'] }],
    ['R30: dequeue removes the id', { a: ['m1', 'm2'] }, dequeue('m1'), { a: ['m2'] }],
    ['R30: dequeue of the last id drops the agent', { a: ['m1'], b: ['m1'] }, dequeue('m1'), { b: ['m1'] }],
    ['R30: discard removes its batch', { a: ['m1', 'm2', 'm3'] }, discard(['m3', 'm1']), { a: ['m2'] }],
    ['R30: discard of everything drops the agent', { a: ['m1', 'm2'] }, discard(['m1', 'm2']), {}],
  ]

  it.each(applied)('%s', (_name, before, event, after) => {
    const input = state(before)
    const result = conservationStep(input, event)
    expect(result).not.toHaveProperty('violation')
    expect(plain(result.state)).toStrictEqual(after)
    expect(plain(input)).toStrictEqual(plain(state(before))) // the input state was not mutated
  })

  const violations: readonly (readonly [string, Plain, AgentEvent, string])[] = [
    ['R30: dequeue without enqueue', {}, dequeue('m1'), notOutstanding('agent/inbox/dequeue', 'm1')],
    [
      'R30: dequeue of an id outstanding for another agent only',
      { b: ['m1'] },
      dequeue('m1'),
      notOutstanding('agent/inbox/dequeue', 'm1'),
    ],
    [
      'R30: discard of an unknown id',
      { a: ['m1'] },
      discard(['m1', 'm2']),
      notOutstanding('agent/inbox/discard', 'm2'),
    ],
    [
      'R30: discard naming an id twice',
      { a: ['m1'] },
      discard(['m1', 'm1']),
      notOutstanding('agent/inbox/discard', 'm1'),
    ],
    [
      'R30: empty discard',
      { a: ['m1'] },
      discard([]),
      "agent 'a': agent/inbox/discard with an empty batch (a discard names at least one message)",
    ],
    [
      'R30: double enqueue',
      { a: ['m1'] },
      enqueue('m1'),
      "agent 'a': agent/inbox/enqueue of message m1, which is already outstanding (each id is enqueued once)",
    ],
  ]

  it.each(violations)('%s is a violation and changes nothing', (_name, before, event, detail) => {
    const input = state(before)
    const result = conservationStep(input, event)
    expect(result.violation).toBe(detail)
    expect(result.state).toBe(input)
  })

  const ignored: readonly (readonly [string, Plain, AgentEvent])[] = [
    ['R30: idle with parked items', { a: ['m1'] }, status('idle')],
    ['R30: running', {}, status('running')],
    [
      'R30: settled',
      { a: ['m1'] },
      deepFreeze({ type: 'agent/settled', agentId: 'a', turn: 1, reason: { kind: 'completed' } }),
    ],
  ]

  it.each(ignored)('%s returns the same state object', (_name, before, event) => {
    const input = state(before)
    const result = conservationStep(input, event)
    expect(result).toStrictEqual({ state: input })
    expect(result.state).toBe(input)
  })

  it('R30: folding a whole scenario ends at zero', () => {
    const events = [
      enqueue('m1'),
      enqueue('m2'),
      status('running'),
      dequeue('m1'),
      enqueue('m3'),
      discard(['m2', 'm3']),
      status('idle'),
    ]
    const final = events.reduce<ConservationState>((s, e) => {
      const { state: next, violation } = conservationStep(s, e)
      expect(violation).toBeUndefined()
      return next
    }, emptyConservationState)
    expect(final.size).toBe(0)
  })
})

describe('outstandingInbox', () => {
  it('R30: returns the ids left outstanding (parked at idle)', () => {
    const events = [enqueue('m1'), enqueue('m2'), status('running'), dequeue('m1'), status('idle')]
    expect(plain(outstandingInbox(events))).toStrictEqual({ a: ['m2'] })
  })

  it('R30: is empty when every id was dequeued or discarded', () => {
    const events = [enqueue('m1'), enqueue('m2', 'b'), dequeue('m1'), discard(['m2'], 'b')]
    expect(outstandingInbox(events).size).toBe(0)
  })

  it('R30: throws InvariantViolation at the first violation', () => {
    const events = [enqueue('m1'), dequeue('m1'), dequeue('m1')]
    expect(() => outstandingInbox(events)).toThrow(
      new InvariantViolation('R30', notOutstanding('agent/inbox/dequeue', 'm1')),
    )
  })
})
