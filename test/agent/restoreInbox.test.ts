/**
 * R51 by table: what a resumed agent starts with, from a journal and the transcript. Items are
 * written as `id:placement` (`/turn` for a guard); appended context as `append(id)`.
 */
import { describe, expect, it } from 'vitest'
import { restoreInbox } from '../../src/agent/restoreInbox.js'
import type { SessionEvent } from '../../src/contracts/events.js'
import type { InboxRecord } from '../../src/contracts/inbox.js'
import type { OutboxEntry } from '../../src/machine/outboxEntry.js'
import { itemId, type QueuedItem } from '../../src/machine/queuedItem.js'
import { add, replace, settle } from '../support/inboxRecords.js'

const prompt = (seq: number, id: string): SessionEvent => ({
  seq,
  type: 'user/message',
  data: { content: [{ type: 'text', text: id }], source: { kind: 'user' }, id: id as never },
})

const show = (records: readonly InboxRecord[], history: readonly SessionEvent[] = [], openTurn?: number) => {
  const r = restoreInbox(records, history, openTurn)
  const queued = (item: QueuedItem) =>
    `${itemId(item)}:${'parked' in item ? 'parked' : 'queued'}${'limited' in item ? `/${item.maxSteps} steps` : ''}`
  const staged = (e: OutboxEntry) =>
    e.kind === 'steering' ? `${e.message.id}:steering` : `${e.data.id}:context`
  return {
    queue: r.queue.map(queued),
    waking: r.waking,
    outbox: r.outbox.map(staged),
    appended: r.appended.map((d) => `append(${d.type === 'user/message' ? d.data.id : '?'})`),
    settled: [...r.settled].map(([id, o]) => `${id}:${o.kind}`),
    records: r.records.map((rec) => `${rec.op}(${rec.op === 'settle' ? rec.id : '?'})`),
  }
}

type Shown = ReturnType<typeof show>
const none: Shown = { queue: [], waking: 0, outbox: [], appended: [], settled: [], records: [] }

/** The last element: the turn a session reopens paused in (R65), if any. */
type Row = [string, readonly InboxRecord[], readonly SessionEvent[], Partial<Shown>, number?]
const rows: readonly Row[] = [
  ['R51: no journal, nothing restored', [], [], {}],
  [
    'R51, R8: queued items wake, parked ones stay parked; order kept',
    [add('A'), add('P', 'parked'), add('B')],
    [],
    { queue: ['A:queued', 'P:parked', 'B:queued'], waking: 2 },
  ],
  [
    'R51: an id the transcript holds was delivered and is not restored',
    [add('A'), add('B')],
    [prompt(1, 'A')],
    { queue: ['B:queued'], waking: 1 },
  ],
  [
    'R51, R13c: staged steering and context are the inherited prefix, in order',
    [add('C', 'context'), add('S', 'steering')],
    [],
    { outbox: ['C:context', 'S:steering'] },
  ],
  [
    'R51, V1: context with no steering is appended at once',
    [add('C', 'context'), add('D', 'context')],
    [],
    { appended: ['append(C)', 'append(D)'] },
  ],
  [
    'R51, R49: guarded steering expires, journaled; the context left alone is appended',
    [add('S', 'steering', { turn: 3 }), add('C', 'context')],
    [],
    { appended: ['append(C)'], settled: ['S:discarded'], records: ['settle(S)'] },
  ],
  [
    'R51, R81: a followup keeps its step limit across the restart, through a replace',
    [add('A', 'queued', { maxSteps: 3 }), replace('A', 'a2'), add('B')],
    [],
    { queue: ['A:queued/3 steps', 'B:queued'], waking: 2 },
  ],
  [
    'R51, R65: reopened paused, the open turn keeps its guarded steering and its staged context',
    [add('S', 'steering', { turn: 2 }), add('C', 'context')],
    [],
    { outbox: ['S:steering', 'C:context'] },
    2,
  ],
  [
    'R51, R42: the journal settlements are kept for outcome()',
    [add('A'), settle('A'), settle('Z')],
    [],
    { settled: ['A:discarded', 'Z:discarded'] },
  ],
]

describe('restoreInbox (R51)', () => {
  it.each(rows)('%s', (_name, records, history, expected, openTurn) => {
    expect(show(records, history, openTurn)).toStrictEqual({ ...none, ...expected })
  })
})
