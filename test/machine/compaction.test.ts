/** Table tests of `compaction.ts`: the compaction phase between turns (R74–R76). */
import { describe, it } from 'vitest'
import type { AgentMessageId } from '../../src/index.js'
import type { Compacting } from '../../src/machine/activity.js'
import {
  betweenTurns,
  boom,
  C,
  checkIgnored,
  checkRow,
  type IgnoredRow,
  idle,
  make,
  q,
  queueSend,
  type Row,
  S,
  turning,
} from '../support/machineFixtures.js'

const order = { ref: 3, keepLastTurns: 1 }
const compacting = (patch = {}) =>
  make({
    status: 'running',
    window: true,
    lastTurn: 2,
    nextActivity: 8,
    activity: { kind: 'compaction', id: 7, order } satisfies Compacting,
    ...patch,
  })
const ended = { kind: 'between', id: 7, checkpointed: false } as const
const data = { upToSeq: 9, keptFromSeq: 6, summary: [{ type: 'text' as const, text: 'sum' }] }

describe('compaction: begin, join, end (R74, R76)', () => {
  const rows: readonly Row[] = [
    [
      'R74: while idle it begins at once: running, start, the summariser',
      idle({ lastTurn: 2 }),
      { type: 'compact', ref: 3, keepLastTurns: 1 },
      ['running', 'compaction/start', 'summarize#1(keep 1)'],
      {
        status: 'running',
        window: true,
        nextActivity: 2,
        activity: { kind: 'compaction', id: 1, order },
      },
    ],
    [
      'R74: while a turn runs it is due before the next admission',
      turning(),
      { type: 'compact', ref: 3, keepLastTurns: 1 },
      [],
      { compactionDue: order },
    ],
    [
      'R74: the next move runs a due compaction before claiming the queue',
      betweenTurns({ checkpointed: true }, { queue: [q('m1')], compactionDue: order }),
      { type: 'advance', activity: 1 },
      ['compaction/start', 'summarize#2(keep 1)'],
      {
        activity: { kind: 'compaction', id: 2, order },
        nextActivity: 3,
        window: true,
        compactionDue: undefined,
      },
    ],
    [
      'R74: the summary is one durable event, then the end and a checkpoint; the window closes',
      compacting(),
      { type: 'compaction/done', activity: 7, compaction: data },
      ['compaction(6)', 'compaction/end(compacted)', 'checkpoint#7'],
      { activity: ended, window: false },
    ],
    [
      'R74: nothing to summarise: skipped, nothing appended',
      compacting(),
      { type: 'compaction/done', activity: 7 },
      ['compaction/end(skipped)', 'checkpoint#7'],
      { activity: ended, window: false },
    ],
    [
      'R75: a failed summariser: agent/error, end(error), nothing appended',
      compacting(),
      { type: 'compaction/failed', activity: 7, error: boom },
      ['error(2.0)', 'compaction/end(error)', 'checkpoint#7'],
      { activity: ended, window: false },
    ],
    [
      'R75: cancel() clears: discards what waits, aborts the summariser, ends aborted',
      compacting({ queue: [q('m1')], outbox: [S('s1'), C('c1')] }),
      { type: 'cancel/clear', cause: { kind: 'user' }, keepInbox: false },
      ['discard(m1,s1)', 'abort#7(user)', 'stop#7', 'compaction/end(aborted)', 'checkpoint#7'],
      { activity: ended, window: false, queue: [], waking: 0, outbox: [C('c1')] },
    ],
    [
      'R75: cancel({keepInbox}) keeps the queue and the outbox for the next turn',
      compacting({ queue: [q('m1')], outbox: [S('s1')] }),
      { type: 'cancel/clear', cause: { kind: 'user' }, keepInbox: true },
      ['abort#7(user)', 'stop#7', 'compaction/end(aborted)', 'checkpoint#7'],
      { activity: ended, window: false },
    ],
    [
      'R75: dispose() aborts it; the next move then closes the store',
      compacting(),
      { type: 'dispose' },
      ['abort#7(disposed)', 'stop#7', 'compaction/end(aborted)', 'checkpoint#7'],
      { activity: ended, window: false, disposal: 'disposing' },
    ],
    [
      'R75: a steer while it runs is staged, as at any turn boundary',
      compacting(),
      queueSend('s1', 'next-step', true),
      ['enqueue(s1,steering)'],
      { outbox: [S('s1')] },
    ],
    [
      'R75: removing staged steering while it runs keeps the context staged: nothing reaches the log before the summary',
      compacting({ outbox: [S('s1'), C('c1')] }),
      { type: 'remove', id: 's1' as AgentMessageId },
      ['discard:removed(s1)'],
      { outbox: [C('c1')] },
    ],
    [
      'R76: a turn whose last request passed the threshold makes one due',
      turning(
        { id: 1, turn: 1, phase: 'turn-stopping', step: 1 },
        {
          autoCompaction: { ref: 0, keepLastTurns: 2, threshold: 100 },
          requestInput: 101,
        },
      ),
      { type: 'turn-stopping/done', activity: 1 },
      ['turn/end(1,completed)', 'settled(1,completed)', 'checkpoint#1'],
      {
        activity: { kind: 'between', id: 1, checkpointed: false },
        window: false,
        requestInput: undefined,
        compactionDue: { ref: 0, keepLastTurns: 2 },
      },
    ],
    [
      'R76: at or under the threshold nothing is due',
      turning(
        { id: 1, turn: 1, phase: 'turn-stopping', step: 1 },
        {
          autoCompaction: { ref: 0, keepLastTurns: 2, threshold: 100 },
          requestInput: 100,
        },
      ),
      { type: 'turn-stopping/done', activity: 1 },
      ['turn/end(1,completed)', 'settled(1,completed)', 'checkpoint#1'],
      { activity: { kind: 'between', id: 1, checkpointed: false }, window: false, requestInput: undefined },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    ['R74: a call while one runs joins it', compacting(), { type: 'compact', ref: 4, keepLastTurns: 0 }],
    [
      'R74: a call while one is due joins it',
      turning({}, { compactionDue: order }),
      { type: 'compact', ref: 4, keepLastTurns: 0 },
    ],
    [
      'R75: a late answer of an aborted summariser is dropped',
      betweenTurns({ id: 7 }),
      { type: 'compaction/done', activity: 7, compaction: data },
    ],
    ['R75: a late failure too', compacting(), { type: 'compaction/failed', activity: 6, error: boom }],
  ]
  it.each(ignored)('%s', checkIgnored)
})
