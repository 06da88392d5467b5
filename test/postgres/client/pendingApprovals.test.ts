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
const request = (callId: string) =>
  at('approval/request', { turn: 1, step: 1, callId, name: 'shell', arguments: `{"id":"${callId}"}` })
const decision = (callId: string) =>
  at('approval/decision', { turn: 1, step: 1, callId, decision: 'approved', source: { kind: 'user' } })
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
    expect(list).toEqual([{ ...r.data, requestedSeq: r.seq }])
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
