/**
 * Table tests of cancel and dispose of a paused turn (R64, R29): cancel aborts the pending calls
 * without a decision; dispose writes nothing for the pause.
 */
import { describe, expect, it } from 'vitest'
import {
  betweenTurns,
  C,
  checkFold,
  durable,
  type FoldRow,
  fold,
  q,
  S,
  show,
} from '../support/machineFixtures.js'
import { c1, paused, pausedOn } from '../support/pauseFixtures.js'

const cancelled = [
  { type: 'cancel', cause: { kind: 'user' }, keepInbox: false },
  { type: 'cancel/clear', cause: { kind: 'user' }, keepInbox: false },
  { type: 'unwind', activity: 1 },
] as const

describe('cancel and dispose of a paused turn (R64)', () => {
  it('R64: cancel aborts every pending call without a decision: ABORTED, never run; the turn ends aborted', () => {
    const r = fold(paused({ started: [false, true] }, { queue: [q('f1')], outbox: [S('s1')] }), [
      ...cancelled,
    ])
    expect(r.out.map(show)).toStrictEqual([
      'cancel(user)',
      'post cancel/clear(user)',
      'discard(f1,s1)',
      'abort#1(user)',
      'schedule unwind#1',
      'stop#1',
      'tool/end(c1,ABORTED)',
      'tool/call(shell)',
      'tool/result(c1,ABORTED)',
      'tool/end(c2,ABORTED)',
      'tool/call(read)',
      'tool/result(c2,ABORTED)',
      'step/end(1.1)',
      'running',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'checkpoint#1',
    ])
    const result = r.out[8]
    expect(result?.kind === 'durable' && result.draft.data).toStrictEqual({
      turn: 1,
      step: 1,
      result: {
        type: 'tool-result',
        toolCallId: 'c1',
        content: [{ type: 'text', text: 'Cancelled while waiting for approval; it never ran.' }],
        isError: true,
        code: 'ABORTED',
      },
    })
    expect(r.state.activity).toStrictEqual(betweenTurns().activity)
    expect(r.state.status).toBe('running')
  })

  it('R64/R26: cancel with keepInbox keeps the queue and the steering for the next turn', () => {
    const kept = cancelled.map((input) => ('keepInbox' in input ? { ...input, keepInbox: true } : input))
    const r = fold(paused({}, { queue: [q('f1')], outbox: [S('s1')] }), kept)
    expect(r.out.map(show)).not.toContain('discard(f1,s1)')
    expect(r.out.map(show)).toContain('turn/end(1,aborted)')
    expect(r.state.outbox).toStrictEqual([S('s1')])
    expect(r.state.queue.size).toBe(1)
  })

  const disposed: FoldRow = [
    'R64/R29: dispose of a paused turn discards what R29 discards and writes nothing for the pause',
    paused({}, { queue: [q('f1')], outbox: [S('s1')], journaling: true }),
    [{ type: 'dispose' }, { type: 'unwind', activity: 1 }],
    [
      'discard(f1,s1)',
      'journal(settle f1)',
      'journal(settle s1)',
      'abort#1(disposed)',
      'schedule unwind#1',
      'stop#1',
      'running',
      'settled(1,aborted)',
      'checkpoint#1',
    ],
    {
      status: 'running',
      window: false,
      disposal: 'disposing',
      suspended: true,
      queue: [],
      waking: 0,
      outbox: [],
      activity: betweenTurns().activity,
    },
  ]
  const disposedWithContext: FoldRow = [
    'R64/R42: context staged for the pause stays staged, as the journal has it, and is not appended at the close',
    paused({}, { outbox: [C('i1')], journaling: true }),
    [{ type: 'dispose' }, { type: 'unwind', activity: 1 }, { type: 'advance', activity: 1 }],
    [
      'abort#1(disposed)',
      'schedule unwind#1',
      'stop#1',
      'running',
      'settled(1,aborted)',
      'checkpoint#1',
      'idle',
      'post dispose/close',
    ],
    { status: 'idle', window: false, disposal: 'closing', suspended: true, activity: null },
  ]
  it.each([disposed, disposedWithContext])('%s', checkFold)

  it('R64: dispose of a turn whose approvals were all decided ends it disposed, as R29 says', () => {
    const r = fold(pausedOn(['approved', undefined], {}, { status: 'running' }), [
      { type: 'dispose' },
      { type: 'unwind', activity: 1 },
    ])
    expect(r.out.map(show)).toContain('turn/end(1,disposed)')
    expect(r.out.map(show)).toContain(show(durable('tool/call', { turn: 1, step: 1, call: c1 })))
  })
})
