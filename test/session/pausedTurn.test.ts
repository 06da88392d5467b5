/**
 * Table tests of `findPausedTurn` (R65, R80): which logs reopen paused, and on what.
 */
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src/contracts/events.js'
import { findPausedTurn } from '../../src/session/pausedTurn.js'

type Draft = Omit<SessionEvent, 'seq'>
const log = (...drafts: readonly Draft[]): SessionEvent[] =>
  drafts.map((d, i) => ({ seq: i + 1, ...d }) as SessionEvent)

const call = (id: string) => ({ type: 'tool-call' as const, id, name: 'shell', arguments: '{}' })
const at = { turn: 1, step: 1 }
const start: Draft[] = [
  { type: 'turn/start', data: { turn: 1, trigger: { kind: 'message', source: { kind: 'user' } } } },
  {
    type: 'user/message',
    data: { content: [{ type: 'text', text: 'go' }], source: { kind: 'user' } },
  } as Draft,
  { type: 'step/start', data: at },
]
const asked = (...ids: string[]): Draft => ({
  type: 'assistant/message',
  data: { ...at, content: ids.map(call), usage: { inputTokens: 3, outputTokens: 4 } },
})
const request = (callId: string, index?: number): Draft => ({
  type: 'approval/request',
  data: { ...at, callId, ...(index === undefined ? {} : { index }), name: 'shell', arguments: '{}' },
})
const decision = (
  callId: string,
  decision: 'approved' | 'denied',
  reason?: string,
  index?: number,
): Draft => ({
  type: 'approval/decision',
  data: {
    ...at,
    callId,
    ...(index === undefined ? {} : { index }),
    decision,
    source: { kind: 'user' },
    ...(reason ? { reason } : {}),
  },
})
const result = (toolCallId: string): Draft => ({
  type: 'tool/result',
  data: { ...at, result: { type: 'tool-result', toolCallId, content: [] } },
})
const toolCall = (id: string): Draft => ({ type: 'tool/call', data: { ...at, call: call(id) } })

describe('findPausedTurn (R65)', () => {
  const paused = (patch: Record<string, unknown>) => ({
    turn: 1,
    step: 1,
    reason: 'approval',
    content: [call('c1'), call('c2')],
    calls: [call('c1'), call('c2')],
    recorded: 0,
    ...patch,
  })
  const rows: readonly (readonly [string, SessionEvent[], unknown])[] = [
    ['R65: an empty log is not paused', log(), undefined],
    [
      'R65: requests without decisions in the open step: paused on them',
      log(...start, asked('c1', 'c2'), request('c1'), request('c2')),
      paused({ approvals: ['pending', 'pending'], reasons: [undefined, undefined] }),
    ],
    [
      'R62/R65: decided calls keep their decision and a denial its reason; a call that needed none has no slot',
      log(...start, asked('c1', 'c2'), request('c2'), request('c1'), decision('c2', 'denied', 'no')),
      paused({ approvals: ['pending', 'denied'], reasons: [undefined, 'no'] }),
    ],
    [
      'R65: results already recorded are counted (a prefix in model order)',
      log(...start, asked('c1', 'c2'), request('c2'), toolCall('c1'), result('c1')),
      paused({ approvals: [undefined, 'pending'], reasons: [undefined, undefined], recorded: 1 }),
    ],
    [
      'R37/R65: every request decided but the step unfinished: not paused (closed as interrupted)',
      log(...start, asked('c1', 'c2'), request('c1'), decision('c1', 'approved')),
      undefined,
    ],
    [
      'R64: a turn that ended after its requests (a cancel) is not paused',
      log(
        ...start,
        asked('c1', 'c2'),
        request('c1'),
        toolCall('c1'),
        result('c1'),
        toolCall('c2'),
        result('c2'),
        { type: 'step/end', data: at },
        { type: 'turn/end', data: { turn: 1, reason: { kind: 'aborted' } } },
      ),
      undefined,
    ],
    [
      'V9/R65: two calls that share an id are told apart by their place: the second still waits',
      log(
        ...start,
        asked('c1', 'c1'),
        request('c1', 0),
        request('c1', 1),
        decision('c1', 'approved', undefined, 0),
      ),
      paused({
        content: [call('c1'), call('c1')],
        calls: [call('c1'), call('c1')],
        approvals: ['approved', 'pending'],
        reasons: [undefined, undefined],
      }),
    ],
    [
      'V9/R65: a log without places finds a shared id in model order: a decision is the first pending one',
      log(...start, asked('c1', 'c1'), request('c1'), request('c1'), decision('c1', 'denied', 'no')),
      paused({
        content: [call('c1'), call('c1')],
        calls: [call('c1'), call('c1')],
        approvals: ['denied', 'pending'],
        reasons: ['no', undefined],
      }),
    ],
    [
      'R80: a budget/pause after the step: paused on the budget',
      log(...start, asked(), { type: 'step/end', data: at }, {
        type: 'budget/pause',
        data: { ...at, usage: { totalTokens: 7, requests: 1 }, limits: { maxRequests: 1 } },
      } as Draft),
      { turn: 1, step: 1, reason: 'budget', content: [], calls: [], recorded: 0, approvals: [], reasons: [] },
    ],
    [
      'R80: a turn that paused before its first request, after a turn with steps: paused at step 0',
      log(
        ...start,
        asked(),
        { type: 'step/end', data: at },
        { type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
        { type: 'turn/start', data: { turn: 2, trigger: { kind: 'message', source: { kind: 'user' } } } },
        {
          type: 'budget/pause',
          data: { turn: 2, step: 0, usage: { totalTokens: 7, requests: 1 }, limits: { maxRequests: 1 } },
        } as Draft,
      ),
      { turn: 2, step: 0, reason: 'budget', content: [], calls: [], recorded: 0, approvals: [], reasons: [] },
    ],
  ]
  it.each(rows)('%s', (_name, events, expected) => {
    expect(findPausedTurn(events)).toStrictEqual(expected)
  })
})
