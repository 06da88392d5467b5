/**
 * R61, R65: the pending approvals of a session as its transcript says (`PendingApprovals`, what a
 * client's `approvals$` folds; pure): requests of the open step without a decision or a result,
 * in the order requested; a new step or turn, or its end, leaves none.
 */
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../../src/index.js'
import { PendingApprovals } from '../../../src/postgres/client/pendingApprovals.js'

let seq = 0
const at = (type: string, data: object): SessionEvent => ({ seq: ++seq, type, data }) as SessionEvent
const indexOf = (callId: string) => (callId === 'c2' ? 1 : 0)
const request = (callId: string, index = indexOf(callId)) =>
  at('approval/request', {
    turn: 1,
    step: 1,
    callId,
    index,
    name: 'shell',
    arguments: `{"id":"${callId}"}`,
  })
const decision = (callId: string, index?: number) =>
  at('approval/decision', {
    turn: 1,
    step: 1,
    callId,
    ...(index === undefined ? {} : { index }),
    decision: 'approved',
    source: { kind: 'user' },
  })
const asked = (...ids: string[]) =>
  at('assistant/message', {
    turn: 1,
    step: 1,
    content: ids.map((id) => ({ type: 'tool-call', id, name: 'shell', arguments: '{}' })),
  })
/** A request as logs wrote it before requests held the call's place. */
const oldRequest = (callId: string) =>
  at('approval/request', { turn: 1, step: 1, callId, name: 'shell', arguments: '{}' })
const result = (callId: string) =>
  at('tool/result', { turn: 1, step: 1, result: { type: 'tool-result', toolCallId: callId, content: [] } })

const fold = (events: readonly SessionEvent[]) => {
  const pending = new PendingApprovals()
  for (const event of events) pending.add(event)
  return pending.list
}
const ids = (events: readonly SessionEvent[]) => fold(events).map((a) => a.callId)

describe('R61, R65: pending approvals folded from a transcript', () => {
  it('R61: a request waits, with its data and the seq of its request, frozen', () => {
    const r = request('c1')
    const list = fold([at('turn/start', { turn: 1 }), at('step/start', { turn: 1, step: 1 }), r])
    expect(list).toEqual([{ ...r.data, key: '1.1.0', requestedSeq: r.seq }])
    expect(Object.isFrozen(list)).toBe(true)
    expect(Object.isFrozen(list[0])).toBe(true)
  })

  it.each([
    ['nothing', [], []],
    ['two requests, in the order requested', [request('c2'), request('c1')], ['c2', 'c1']],
    ['a decision ends the wait', [request('c1'), request('c2'), decision('c1')], ['c2']],
    ['a result without a decision (a cancel, R64) ends it too', [request('c1'), result('c1')], []],
    ['a decision for a call never requested changes nothing', [request('c1'), decision('c9')], ['c1']],
    ['a new step leaves none', [request('c1'), at('step/start', { turn: 1, step: 2 })], []],
    [
      'the end of the turn leaves none',
      [request('c1'), at('turn/end', { turn: 1, reason: { kind: 'aborted' } })],
      [],
    ],
    ['a new turn leaves none', [request('c1'), at('turn/start', { turn: 2 })], []],
  ])('R61, R62: %s', (_name, events, expected) => {
    expect(ids(events as SessionEvent[])).toEqual(expected)
  })

  it('V9, R65: two calls that share an id (or have an empty one) are listed apart, each decided and answered by its place', () => {
    const start = [
      at('turn/start', { turn: 1 }),
      at('step/start', { turn: 1, step: 1 }),
      asked('c1', 'c1', ''),
    ]
    const requests = [request('c1', 0), request('c1', 1), request('', 2)]
    expect(fold([...start, ...requests]).map((a) => [a.callId, a.key])).toEqual([
      ['c1', '1.1.0'],
      ['c1', '1.1.1'],
      ['', '1.1.2'],
    ])
    expect(fold([...start, ...requests, decision('c1', 0)]).map((a) => a.key)).toEqual(['1.1.1', '1.1.2'])
    // Results are recorded in model order: the first one answers call 0 only.
    expect(fold([...start, ...requests, result('c1')]).map((a) => a.key)).toEqual(['1.1.1', '1.1.2'])
    expect(fold([...start, ...requests, decision('c1', 1), decision('', 2)]).map((a) => a.key)).toEqual([
      '1.1.0',
    ])
  })

  it('R65: a log written before requests held the call place finds each by its id, in model order', () => {
    const start = [at('turn/start', { turn: 1 }), at('step/start', { turn: 1, step: 1 }), asked('c1', 'c1')]
    const requests = [oldRequest('c1'), oldRequest('c1')]
    expect(fold([...start, ...requests]).map((a) => a.key)).toEqual(['1.1.0', '1.1.1'])
    expect(fold([...start, ...requests, decision('c1')]).map((a) => a.key)).toEqual(['1.1.1'])
  })

  it('R65: the list is the same object while nothing pending changes', () => {
    const pending = new PendingApprovals()
    pending.add(request('c1'))
    const first = pending.list
    pending.add(at('user/message', { id: 'm', content: [], source: { kind: 'user' } }))
    pending.add(decision('c9'))
    expect(pending.list).toBe(first)
    pending.add(decision('c1'))
    expect(pending.list).toEqual([])
  })
})
