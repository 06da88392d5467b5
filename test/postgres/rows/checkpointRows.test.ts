/**
 * R57: what a checkpoint says about waiting work (`checkpointRows`, pure): which records it writes
 * flagged `pending`, and which earlier rows it answers (a send whose id it adds, settles or
 * delivers; a queued `add` whose id it settles or delivers).
 */
import { describe, expect, it } from 'vitest'
import type { InboxRecord, SessionEvent } from '../../../src/index.js'
import { checkpointRows } from '../../../src/postgres/rows/checkpointRows.js'
import { deepFreeze } from '../../support/deepFreeze.js'
import { add, message, removed, settle } from '../../support/inboxRecords.js'

const delivered = (seq: number, name: string): SessionEvent => ({
  seq,
  type: 'user/message',
  data: message(name),
})
const steered = (seq: number, name: string): SessionEvent => ({
  seq,
  type: 'steering/message',
  data: { ...message(name), turn: 1 },
})

type Row = [string, SessionEvent[], InboxRecord[], { pending: boolean[]; sends: string[]; adds: string[] }]
const rows: Row[] = [
  ['nothing', [], [], { pending: [], sends: [], adds: [] }],
  [
    'a queued add is waiting work; parked, staged and other records are not',
    [],
    [
      add('q'),
      add('p', 'parked'),
      add('s', 'steering'),
      add('c', 'context'),
      { op: 'move', id: 'q', before: null } as InboxRecord,
    ],
    { pending: [true, false, false, false, false], sends: ['q', 'p', 's', 'c'], adds: [] },
  ],
  [
    'a delivered prompt and steering answer their sends and adds',
    [delivered(1, 'a'), steered(2, 'b'), { seq: 3, type: 'step/start', data: { turn: 1, step: 1 } }],
    [],
    { pending: [], sends: ['a', 'b'], adds: ['a', 'b'] },
  ],
  [
    'a settlement answers its send and its add, in the checkpoint that adds it too',
    [],
    [add('x'), settle('x', removed)],
    { pending: [true, false], sends: ['x'], adds: ['x'] },
  ],
]

describe('R57: checkpointRows and waiting work', () => {
  for (const [name, events, records, expected] of rows)
    it(`R57: ${name}`, () => {
      const columns = checkpointRows(deepFreeze(events), deepFreeze(records))
      expect(columns.pending).toEqual(expected.pending)
      expect([...columns.sendsAnswered].sort()).toEqual([...expected.sends].sort())
      expect([...columns.addsAnswered].sort()).toEqual([...expected.adds].sort())
    })
})
