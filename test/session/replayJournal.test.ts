import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src/contracts/events.js'
import type { InboxRecord } from '../../src/contracts/inbox.js'
import { deliveredIds, replayJournal } from '../../src/session/replayJournal.js'
import { add, id, message, move, promote, replace, settle, view } from '../support/inboxRecords.js'

type Expected = { queue?: string[]; outbox?: string[]; settled?: string[] }
type Row = readonly [
  name: string,
  records: readonly InboxRecord[],
  delivered: readonly string[],
  expected: Expected,
]

const blocked = { kind: 'blocked', reason: { name: 'Error', message: 'no' } } as const

const rows: readonly Row[] = [
  ['R51: an empty journal: nothing waits', [], [], {}],
  [
    'R51: adds keep their order in each lane; placements as given',
    [add('A'), add('B', 'steering'), add('C', 'parked'), add('D', 'context')],
    [],
    { queue: ['A:queued', 'C:parked'], outbox: ['B:steering', 'D:context'] },
  ],
  [
    'R47: an add at the head goes first in the queue',
    [add('A'), add('B'), add('X', 'queued', { at: 'head' })],
    [],
    { queue: ['X:queued', 'A:queued', 'B:queued'] },
  ],
  [
    'R51: `at` does not apply to the outbox',
    [add('S', 'steering'), add('T', 'steering', { at: 'head' })],
    [],
    { outbox: ['S:steering', 'T:steering'] },
  ],
  [
    'R49: a steering keeps its turn guard',
    [add('S', 'steering', { turn: 3 })],
    [],
    { outbox: ['S:steering/3'] },
  ],
  [
    'R51: an id is accepted once: a second add of it is ignored',
    [add('A'), add('B'), add('A', 'steering')],
    [],
    { queue: ['A:queued', 'B:queued'] },
  ],
  [
    'R44: replace changes the content in place (id, placement, position, guard stay)',
    [add('A'), add('B'), add('S', 'steering', { turn: 2 }), replace('A', 'new'), replace('S', 'fix')],
    [],
    { queue: ['A:queued=new', 'B:queued'], outbox: ['S:steering/2=fix'] },
  ],
  [
    'R45: move puts the item right before the one it names',
    [add('A'), add('B'), add('C'), move('C', 'A')],
    [],
    { queue: ['C:queued', 'A:queued', 'B:queued'] },
  ],
  [
    'R45: move into the middle',
    [add('A'), add('B'), add('C'), move('A', 'C')],
    [],
    { queue: ['B:queued', 'A:queued', 'C:queued'] },
  ],
  [
    'R45: before null is the tail; a before that names no queued item is the tail too',
    [add('A'), add('B'), add('C'), add('S', 'steering'), move('A', null), move('B', 'S')],
    [],
    { queue: ['C:queued', 'A:queued', 'B:queued'], outbox: ['S:steering'] },
  ],
  [
    'R45: move keeps a parked item parked',
    [add('A'), add('P', 'parked'), move('P', 'A')],
    [],
    { queue: ['P:parked', 'A:queued'] },
  ],
  [
    'R45: steering and context are not reordered',
    [add('S', 'steering'), add('T', 'context'), move('T', 'S')],
    [],
    { outbox: ['S:steering', 'T:context'] },
  ],
  [
    'R46: promote to steering takes a queued item to the end of the outbox',
    [add('A'), add('S', 'steering'), add('B'), add('T', 'context'), promote('A', 'steering')],
    [],
    { queue: ['B:queued'], outbox: ['S:steering', 'T:context', 'A:steering'] },
  ],
  [
    'R46: promote to steering takes a parked item too',
    [add('P', 'parked'), promote('P', 'steering')],
    [],
    { outbox: ['P:steering'] },
  ],
  [
    'R46: promote to head makes a parked item the waking head',
    [add('A'), add('P', 'parked'), promote('P', 'head')],
    [],
    { queue: ['P:queued', 'A:queued'] },
  ],
  [
    'R46: an outbox item is not promoted',
    [add('S', 'steering'), promote('S', 'head'), promote('S', 'steering')],
    [],
    { outbox: ['S:steering'] },
  ],
  [
    'R42: settle takes the item out and keeps its outcome',
    [add('A'), add('B'), add('S', 'steering'), settle('A'), settle('S', blocked)],
    [],
    { queue: ['B:queued'], settled: ['A:discarded', 'S:blocked'] },
  ],
  [
    'R42: an id settles once: the first outcome stays',
    [add('A'), settle('A', blocked), settle('A')],
    [],
    { settled: ['A:blocked'] },
  ],
  [
    'R42: a settlement of an id the journal never added is kept (a compacted journal)',
    [settle('Z')],
    [],
    { settled: ['Z:discarded'] },
  ],
  ['R42: a settled id is not added again', [settle('A'), add('A')], [], { settled: ['A:discarded'] }],
  [
    'R43: replace, move and promote of an unknown or settled id change nothing',
    [
      add('A'),
      add('B'),
      settle('B'),
      replace('Z', 'x'),
      replace('B', 'x'),
      move('Z', 'A'),
      move('B', 'A'),
      move('A', 'Z'),
      promote('Z', 'head'),
      promote('B', 'steering'),
    ],
    [],
    { queue: ['A:queued'], settled: ['B:discarded'] },
  ],
  [
    'R51: a delivered id is not waiting',
    [add('A'), add('B'), add('S', 'steering')],
    ['A', 'S'],
    { queue: ['B:queued'] },
  ],
  [
    'R51: records about a delivered id change nothing that is left',
    [add('A'), add('B'), promote('A', 'head'), replace('A', 'x')],
    ['A'],
    { queue: ['B:queued'] },
  ],
  [
    'R45, R51: a move names a delivered item (a claimed prompt) as its place; the order holds',
    [add('A'), add('B'), add('C'), add('D'), settle('B'), move('D', 'A')],
    ['A'],
    { queue: ['D:queued', 'C:queued'], settled: ['B:discarded'] },
  ],
  [
    'R42: a settlement of a delivered id is still kept',
    [add('A'), settle('A', blocked)],
    ['A'],
    { settled: ['A:blocked'] },
  ],
]

describe('replayJournal', () => {
  it.each(rows)('%s', (_name, records, delivered, expected) => {
    const replay = replayJournal(records, new Set(delivered))
    expect(view(replay)).toStrictEqual({ queue: [], outbox: [], settled: [], ...expected })
  })

  it('R51: items carry the journaled message objects and exactly message, placement (turn when guarded)', () => {
    const records = [add('A'), add('S', 'steering', { turn: 4 })] as const
    const { queue, outbox } = replayJournal(records, new Set())
    expect(queue[0]?.message).toBe((records[0] as { message: unknown }).message)
    expect(Object.keys(queue[0] ?? {})).toStrictEqual(['message', 'placement'])
    expect(outbox[0]).toStrictEqual({ message: message('S'), placement: 'steering', turn: 4 })
  })

  it('R51: deliveredIds collects the ids of user/message and steering/message events', () => {
    const text = [{ type: 'text' as const, text: 'x' }]
    const source = { kind: 'user' as const }
    const events: SessionEvent[] = [
      { seq: 1, type: 'user/message', data: { content: text, source } },
      { seq: 2, type: 'user/message', data: { content: text, source, id: id('P') } },
      { seq: 3, type: 'steering/message', data: { turn: 1, content: text, source, id: id('S') } },
      { seq: 4, type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
    ]
    expect([...deliveredIds(events)]).toStrictEqual(['P', 'S'])
  })
})
