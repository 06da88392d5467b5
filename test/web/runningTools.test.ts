/** The page's list of running calls, folded from the timeline entries the event stream sends (R72). */
import { describe, expect, it } from 'vitest'
import type { TimelineEntry } from '../../src/timeline/types.js'
import { formatElapsed } from '../../src/web/app/renderRunningTools.js'
import { runningTools } from '../../src/web/app/runningTools.js'

const agentId = 'a'
let seq = 0
const start = (callId: string, turn: number, t?: number): TimelineEntry => ({
  seq: ++seq,
  ...(t === undefined ? {} : { t }),
  stream: 'events',
  event: { type: 'agent/tool/start', agentId, turn, step: 1, callId, index: 0, name: `tool-${callId}` },
})
const end = (callId: string, turn: number): TimelineEntry => ({
  seq: ++seq,
  stream: 'events',
  event: {
    type: 'agent/tool/end',
    agentId,
    turn,
    step: 1,
    callId,
    index: 0,
    isError: true,
    code: 'CANCELLED',
  },
})
const turnEnd = (turn: number): TimelineEntry => ({
  seq: ++seq,
  stream: 'transcript',
  event: { seq, type: 'turn/end', data: { turn, reason: { kind: 'disposed' } } },
})

describe('runningTools', () => {
  it('R72: a call runs from its start to its end, in the order calls started, with its start time', () => {
    expect(runningTools([start('c1', 1, 100), start('c2', 1), end('c1', 1)])).toEqual([
      { callId: 'c2', name: 'tool-c2', turn: 1, step: 1 },
    ])
    expect(
      runningTools([start('c1', 1, 100), start('c2', 1, 150)]).map((t) => [t.callId, t.startedAt]),
    ).toEqual([
      ['c1', 100],
      ['c2', 150],
    ])
    expect(runningTools([])).toEqual([])
  })

  it('a turn that ends drops the calls of that turn left without an end, and only those', () => {
    expect(runningTools([start('c1', 1), turnEnd(1), start('c2', 2)]).map((t) => t.callId)).toEqual(['c2'])
  })
})

describe('formatElapsed', () => {
  it.each([
    [0, '0s'],
    [-50, '0s'],
    [59_999, '59s'],
    [60_000, '1m 00s'],
    [125_000, '2m 05s'],
    [3_720_000, '1h 02m'],
  ])('%i ms reads %s', (ms, shown) => expect(formatElapsed(ms)).toBe(shown))
})
