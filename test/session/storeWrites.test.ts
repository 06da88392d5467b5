/** Table tests of `storeWrites.ts`: a file store's checkpoints, failures and closing (R29, R35, R36, R40). */
import { describe, expect, it } from 'vitest'
import type { FileTail } from '../../src/session/fileTail.js'
import {
  type Checkpoint,
  nextStoreWrites,
  type StoreWrites,
  type StoreWritesEffect,
  type StoreWritesEvent,
  storeWrites,
} from '../../src/session/storeWrites.js'
import { deepFreeze } from '../support/deepFreeze.js'

/** Text as the tail keeps it: one piece, or none for ''. */
const pieces = (text: string): readonly string[] => (text === '' ? [] : [text])
const log = (end: number, buffered = '', writing?: string): FileTail => ({
  end,
  buffered: pieces(buffered),
  writing: writing === undefined ? undefined : pieces(writing),
})
const checkpoint = (patch: Partial<Checkpoint> = {}): Checkpoint => ({
  journalDone: false,
  failure: undefined,
  over: false,
  ...patch,
})
const state = (tail: FileTail, current?: Checkpoint, phase: StoreWrites['phase'] = 'open'): StoreWrites =>
  deepFreeze({ log: tail, checkpoint: current, phase })
const event = (e: StoreWritesEvent): StoreWritesEvent => deepFreeze(e)

const diskFull = new Error('ENOSPC')
const badDescriptor = new Error('EBADF')

type Row = readonly [
  name: string,
  before: StoreWrites,
  event: StoreWritesEvent,
  expected: { readonly state: StoreWrites; readonly effects: readonly StoreWritesEffect[] },
]

describe('nextStoreWrites: checkpoints (R36, R40)', () => {
  const rows: readonly Row[] = [
    [
      'R35: appended lines are buffered',
      state(log(10, 'a\n')),
      event({ type: 'append', text: 'b\n' }),
      { state: state(log(10, 'a\nb\n')), effects: [] },
    ],
    [
      'R36: a flush starts a checkpoint: what is buffered is written at the end of the log, beside the journal',
      state(log(10, 'a\n')),
      event({ type: 'flush' }),
      {
        state: state(log(10, '', 'a\n'), checkpoint()),
        effects: [{ kind: 'checkpoint', text: pieces('a\n'), at: 10 }],
      },
    ],
    [
      'R36: a checkpoint with nothing appended still writes (and fsyncs) the log',
      state(log(10)),
      event({ type: 'flush' }),
      {
        state: state(log(10, '', ''), checkpoint()),
        effects: [{ kind: 'checkpoint', text: pieces(''), at: 10 }],
      },
    ],
    [
      'R35: lines appended during a checkpoint wait for the next one',
      state(log(10, '', 'a\n'), checkpoint()),
      event({ type: 'append', text: 'b\n' }),
      { state: state(log(10, 'b\n', 'a\n'), checkpoint()), effects: [] },
    ],
    [
      'R36: the log written first: the checkpoint waits for the journal',
      state(log(10, 'b\n', 'a\n'), checkpoint()),
      event({ type: 'log-written', bytes: 2 }),
      { state: state(log(12, 'b\n'), checkpoint()), effects: [] },
    ],
    [
      'R36: the journal written first: the checkpoint waits for the log',
      state(log(10, '', 'a\n'), checkpoint()),
      event({ type: 'journal-settled', error: null }),
      { state: state(log(10, '', 'a\n'), checkpoint({ journalDone: true })), effects: [] },
    ],
    [
      'R36: both halves written: the flush is told it completed',
      state(log(10, '', 'a\n'), checkpoint({ journalDone: true })),
      event({ type: 'log-written', bytes: 2 }),
      {
        state: state(log(12), checkpoint({ journalDone: true, over: true })),
        effects: [{ kind: 'report', failure: undefined }],
      },
    ],
    [
      'R40: a failed log write keeps its lines for the next checkpoint, in front, at the same position',
      state(log(10, 'c\n', 'a\nb\n'), checkpoint({ journalDone: true })),
      event({ type: 'log-failed', error: diskFull }),
      {
        state: state(
          { end: 10, buffered: ['a\nb\n', 'c\n'], writing: undefined },
          checkpoint({ journalDone: true, failure: diskFull, over: true }),
        ),
        effects: [{ kind: 'report', failure: diskFull }],
      },
    ],
    [
      'R40: a failed journal write fails the checkpoint once the log has settled',
      state(log(10, '', 'a\n'), checkpoint()),
      event({ type: 'journal-settled', error: badDescriptor }),
      {
        state: state(log(10, '', 'a\n'), checkpoint({ journalDone: true, failure: badDescriptor })),
        effects: [],
      },
    ],
    [
      'R40: the first failure is the one reported',
      state(log(10, '', 'a\n'), checkpoint({ journalDone: true, failure: badDescriptor })),
      event({ type: 'log-failed', error: diskFull }),
      {
        state: state(log(10, 'a\n'), checkpoint({ journalDone: true, failure: badDescriptor, over: true })),
        effects: [{ kind: 'report', failure: badDescriptor }],
      },
    ],
    [
      'R36: once its flush is told, the checkpoint is over and the next flush may go',
      state(log(12, 'b\n'), checkpoint({ journalDone: true, over: true })),
      event({ type: 'reported' }),
      { state: state(log(12, 'b\n')), effects: [] },
    ],
  ]
  it.each(rows)('%s', (_name, before, e, expected) => {
    expect(nextStoreWrites(before, e)).toStrictEqual(expected)
  })
})

describe('nextStoreWrites: closing (R29, R35)', () => {
  const rows: readonly Row[] = [
    [
      'R29: close() with no checkpoint in flight writes what is left at the end, then closes',
      state(log(10, 'a\n')),
      event({ type: 'close' }),
      {
        state: state(log(10, 'a\n'), undefined, 'closed'),
        effects: [{ kind: 'write-last', text: pieces('a\n'), at: 10 }],
      },
    ],
    [
      'R35: close() during a checkpoint waits for it: writing now would write over it',
      state(log(10, '', 'a\n'), checkpoint()),
      event({ type: 'close' }),
      { state: state(log(10, '', 'a\n'), checkpoint(), 'closing'), effects: [{ kind: 'close-later' }] },
    ],
    [
      'R35: lines appended after such a close() are written by its last write',
      state(log(10, '', 'a\n'), checkpoint(), 'closing'),
      event({ type: 'append', text: 'b\n' }),
      { state: state(log(10, 'b\n', 'a\n'), checkpoint(), 'closing'), effects: [] },
    ],
    [
      'R35: the waiting close() writes after the checkpoint, at the new end',
      state(log(12, 'b\n'), undefined, 'closing'),
      event({ type: 'last-write' }),
      {
        state: state(log(12, 'b\n'), undefined, 'closed'),
        effects: [{ kind: 'write-last', text: pieces('b\n'), at: 12 }],
      },
    ],
    [
      'R35: a flush on a closed store is refused',
      state(log(12), undefined, 'closed'),
      event({ type: 'flush' }),
      { state: state(log(12), undefined, 'closed'), effects: [{ kind: 'refuse' }] },
    ],
    [
      'R35: a flush whose turn comes while close() waits is refused',
      state(log(12, 'b\n'), undefined, 'closing'),
      event({ type: 'flush' }),
      { state: state(log(12, 'b\n'), undefined, 'closing'), effects: [{ kind: 'refuse' }] },
    ],
  ]
  it.each(rows)('%s', (_name, before, e, expected) => {
    expect(nextStoreWrites(before, e)).toStrictEqual(expected)
  })
})

describe('nextStoreWrites: events that change nothing return the same state', () => {
  const rows: readonly (readonly [name: string, before: StoreWrites, event: StoreWritesEvent])[] = [
    ['an empty append', state(log(10, 'a\n')), event({ type: 'append', text: '' })],
    [
      'an append after the last write',
      state(log(10), undefined, 'closed'),
      event({ type: 'append', text: 'a\n' }),
    ],
    [
      'a flush fed while a checkpoint is in flight',
      state(log(10, '', 'a\n'), checkpoint()),
      event({ type: 'flush' }),
    ],
    ['a log outcome with no checkpoint', state(log(10)), event({ type: 'log-written', bytes: 2 })],
    ['a journal outcome with no checkpoint', state(log(10)), event({ type: 'journal-settled', error: null })],
    [
      'a second journal outcome',
      state(log(10, '', 'a\n'), checkpoint({ journalDone: true })),
      event({ type: 'journal-settled', error: null }),
    ],
    [
      'reported before the checkpoint is over',
      state(log(10, '', 'a\n'), checkpoint()),
      event({ type: 'reported' }),
    ],
    [
      'a second close() while the first waits',
      state(log(10, '', 'a\n'), checkpoint(), 'closing'),
      event({ type: 'close' }),
    ],
    ['close() on a closed store', state(log(10), undefined, 'closed'), event({ type: 'close' })],
    [
      'the last write on a store that was not waiting to close',
      state(log(10)),
      event({ type: 'last-write' }),
    ],
    [
      'the last write while a checkpoint is in flight',
      state(log(10, '', 'a\n'), checkpoint(), 'closing'),
      event({ type: 'last-write' }),
    ],
  ]
  it.each(rows)('%s', (_name, before, e) => {
    const step = nextStoreWrites(before, e)
    expect(step.state).toBe(before)
    expect(step.effects).toStrictEqual([])
  })
})

it('R37: a store opens with its valid length as the end and a missing newline buffered', () => {
  expect(storeWrites(10, '\n')).toStrictEqual(state(log(10, '\n')))
})
