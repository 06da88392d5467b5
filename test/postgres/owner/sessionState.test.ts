/**
 * Table tests of `owner/sessionState.ts`: the phases of a session store on PostgreSQL (R53, R54),
 * what it keeps unwritten for the next checkpoint (R40), and how far remote edits got (R58).
 */
import { describe, expect, it } from 'vitest'
import {
  hasUnwritten,
  initialSessionState,
  isFlushed,
  refusal,
  type SessionInput,
  type SessionState,
  sessionTransition,
} from '../../../src/postgres/owner/sessionState.js'

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/** A frozen state: a store read with 3 events and 2 records, all written, owning unless patched. */
const at = (patch: Partial<SessionState> = {}): SessionState =>
  deepFreeze({
    ...initialSessionState,
    phase: 'owning',
    journalSeq: 7,
    events: 3,
    records: 2,
    eventsTaken: 3,
    recordsTaken: 2,
    editsWritten: 5,
    editsApplied: 5,
    ...patch,
  })

type Row = readonly [name: string, before: SessionState, input: SessionInput, after: Partial<SessionState>]

const check = (...[, before, input, after]: Row): void => {
  expect(sessionTransition(before, deepFreeze(input))).toStrictEqual({ ...before, ...after })
}

describe('sessionTransition: phases (R53, R54)', () => {
  const rows: readonly Row[] = [
    [
      'R53: an opened store holds what it read, all of it written',
      initialSessionState,
      { type: 'loaded', events: 4, records: 3, journalSeq: 9, remoteApplied: 6 },
      {
        journalSeq: 9,
        events: 4,
        records: 3,
        eventsTaken: 4,
        recordsTaken: 3,
        editsWritten: 6,
        editsApplied: 6,
      },
    ],
    [
      'R54: a store read again under a new lease holds what it read then',
      at({ phase: 'reading' }),
      { type: 'loaded', events: 5, records: 2, journalSeq: 11, remoteApplied: 8 },
      { journalSeq: 11, events: 5, eventsTaken: 5, editsWritten: 8, editsApplied: 8 },
    ],
    [
      'R54: taking the lease makes a reading store the owner',
      at({ phase: 'reading' }),
      { type: 'lease-taken' },
      { phase: 'owning' },
    ],
    ['R54: an owner that loses its lease fails for good', at(), { type: 'lease-lost' }, { phase: 'failed' }],
    [
      'R54: a closing store that loses its lease fails',
      at({ phase: 'closing' }),
      { type: 'lease-lost' },
      { phase: 'failed' },
    ],
    ['R53: release() closes an owner', at(), { type: 'release' }, { phase: 'closing' }],
    [
      'R53: release() closes a store that never took a lease',
      at({ phase: 'reading' }),
      { type: 'release' },
      { phase: 'closing' },
    ],
  ]
  it.each(rows)('%s', check)
})

describe('sessionTransition: appends and checkpoints (R40, R53)', () => {
  const rows: readonly Row[] = [
    [
      'R53: appended events wait for the next checkpoint',
      at(),
      { type: 'appended', events: 2, records: 0 },
      { events: 5 },
    ],
    [
      'R53: appended records wait for the next checkpoint',
      at(),
      { type: 'appended', events: 0, records: 1 },
      { records: 3 },
    ],
    [
      'R53: a checkpoint queued is one more being written',
      at(),
      { type: 'checkpoint-queued' },
      { writing: 1 },
    ],
    [
      'R53: a checkpoint settled is one fewer',
      at({ writing: 2 }),
      { type: 'checkpoint-settled' },
      { writing: 1 },
    ],
    [
      'R53: a checkpoint takes everything unwritten',
      at({ events: 6, records: 4, writing: 1 }),
      { type: 'checkpoint-started' },
      { eventsTaken: 6, recordsTaken: 4 },
    ],
    [
      'R40: a failed checkpoint leaves what it took unwritten, in front of what came meanwhile',
      at({ events: 8, records: 4, eventsTaken: 6, recordsTaken: 4 }),
      { type: 'checkpoint-failed', events: 3, records: 2 },
      { eventsTaken: 3, recordsTaken: 2 },
    ],
    [
      'R40: a checkpoint that fails while closing keeps what it took too',
      at({ phase: 'closing', events: 6, eventsTaken: 6 }),
      { type: 'checkpoint-failed', events: 3, records: 2 },
      { eventsTaken: 3 },
    ],
    [
      'R58: a written checkpoint records how far remote edits got',
      at({ editsApplied: 9 }),
      { type: 'checkpoint-written', applied: 9 },
      { editsWritten: 9 },
    ],
    [
      'R58: an owner notes a remote edit it applied',
      at(),
      { type: 'remote-applied', seq: 8 },
      { editsApplied: 8 },
    ],
  ]
  it.each(rows)('%s', check)
})

describe('sessionTransition: inputs that change nothing return the same state', () => {
  const ignored: readonly (readonly [name: string, before: SessionState, input: SessionInput])[] = [
    ['R54: a store that owns has no lease to take', at(), { type: 'lease-taken' }],
    [
      'R53: a lease taken while closing leaves the store closing',
      at({ phase: 'closing' }),
      { type: 'lease-taken' },
    ],
    [
      'R54: a failed store stays failed when a lease is taken',
      at({ phase: 'failed' }),
      { type: 'lease-taken' },
    ],
    ['R54: a lease is lost once', at({ phase: 'failed' }), { type: 'lease-lost' }],
    ['R53: a second release() is the first', at({ phase: 'closing' }), { type: 'release' }],
    ['R54: release() leaves a failed store failed', at({ phase: 'failed' }), { type: 'release' }],
    ['R53: an empty append', at(), { type: 'appended', events: 0, records: 0 }],
    [
      'R53: a store that does not own appends nothing',
      at({ phase: 'reading' }),
      { type: 'appended', events: 1, records: 0 },
    ],
    ['R53: a checkpoint with nothing unwritten takes nothing', at(), { type: 'checkpoint-started' }],
    [
      'R58: a remote edit applied before is noted once',
      at({ editsApplied: 8 }),
      { type: 'remote-applied', seq: 6 },
    ],
    [
      'R58: a store that cannot write notes no remote edit',
      at({ phase: 'closing' }),
      { type: 'remote-applied', seq: 9 },
    ],
    ['R58: a failed store notes no remote edit', at({ phase: 'failed' }), { type: 'remote-applied', seq: 9 }],
    [
      'R58: a reading store notes no remote edit',
      at({ phase: 'reading' }),
      { type: 'remote-applied', seq: 9 },
    ],
    [
      'R58: an older checkpoint does not take back how far edits got',
      at(),
      { type: 'checkpoint-written', applied: 4 },
    ],
    [
      'R40: a failed checkpoint that took nothing',
      at(),
      { type: 'checkpoint-failed', events: 3, records: 2 },
    ],
  ]
  it.each(ignored)('%s', (_, before, input) => {
    expect(sessionTransition(before, deepFreeze(input))).toBe(before)
  })
})

describe('what the shell asks of the state', () => {
  it.each([
    ['reading', 'no-lease'],
    ['owning', undefined],
    ['closing', 'closed'],
    ['failed', 'failed'],
  ] as const)('R53, R54: a %s store refuses to append: %s', (phase, why) => {
    expect(refusal(at({ phase }))).toBe(why)
  })

  it.each([
    ['all written', at(), false, true],
    ['events unwritten', at({ events: 4 }), true, false],
    ['records unwritten', at({ records: 3 }), true, false],
    ['a remote edit noted, not written', at({ editsApplied: 6 }), true, false],
    ['all written, a checkpoint under way', at({ writing: 1 }), false, false],
  ] as const)('R53: %s: unwritten %s, flushed %s', (_, state, unwritten, flushed) => {
    expect(hasUnwritten(state)).toBe(unwritten)
    expect(isFlushed(state)).toBe(flushed)
  })
})
