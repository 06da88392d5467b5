/**
 * R50: what a compaction of a journal on PostgreSQL removes and writes (`compactedJournal`, pure):
 * the owner's records become their compacted form, applied remote requests go, requests that
 * still wait stay, and a short journal is left alone.
 */
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../../src/index.js'
import type { JournalRow } from '../../../src/postgres/db/readSession.js'
import { COMPACT_AT, compactedJournal } from '../../../src/postgres/rows/compactedJournal.js'
import { decodeSession } from '../../../src/postgres/rows/decodeSession.js'
import { deepFreeze } from '../../support/deepFreeze.js'
import { add, message, removed, settle } from '../../support/inboxRecords.js'

const send = (seq: number, name: string): JournalRow => ({
  seq,
  op: 'send',
  record: { op: 'send', message: message(name), options: { target: 'next-turn', wakeup: true } },
})
const edit = (seq: number, name: string): JournalRow => ({
  seq,
  op: 'remote-remove',
  record: { op: 'remote-remove', request: `r-${seq}`, id: name },
})
const owner = (seq: number, record: object): JournalRow => ({
  seq,
  op: (record as { op: string }).op,
  record,
})
const delivered = (seq: number, name: string): SessionEvent => ({
  seq,
  type: 'user/message',
  data: { ...message(name), id: message(name).id },
})

/** `n` delivered remote followups (a send, then the owner's add), numbered from 1. */
const history = (n: number) => ({
  journal: Array.from({ length: n }, (_, i) => [
    send(2 * i + 1, `m${i}`),
    owner(2 * i + 2, add(`m${i}`)),
  ]).flat(),
  events: Array.from({ length: n }, (_, i) => delivered(i + 1, `m${i}`)),
})

const compaction = (journal: JournalRow[], events: SessionEvent[], remoteApplied = 0) => {
  const rows = deepFreeze({ events: events as unknown[], journal, epoch: 1, remoteApplied, exists: true })
  return compactedJournal(rows.journal, decodeSession('s', rows))
}

describe('R50: compactedJournal', () => {
  it('R50: a journal that would lose fewer than COMPACT_AT rows is left as it is', () => {
    const { journal, events } = history(COMPACT_AT / 2 - 1)
    expect(compaction(journal, events)).toBeUndefined()
  })

  it('R50: applied sends and delivered records go; settlements, waiting items and waiting requests stay', () => {
    const n = COMPACT_AT
    const { journal, events } = history(n)
    const tail = [
      owner(2 * n + 1, add('parked', 'parked')),
      owner(2 * n + 2, add('gone')),
      owner(2 * n + 3, settle('gone', removed)),
      send(2 * n + 4, 'waiting-send'),
      edit(2 * n + 5, 'applied-edit'),
      edit(2 * n + 6, 'waiting-edit'),
    ]
    const result = compaction([...journal, ...tail], events, 2 * n + 5)
    expect(result?.records).toEqual([settle('gone', removed), add('parked', 'parked')])
    // Everything but the send nobody applied and the edit after remote_applied.
    expect(result?.remove).toEqual(
      [...journal, ...tail].map((r) => r.seq).filter((s) => s !== 2 * n + 4 && s !== 2 * n + 6),
    )
  })
})
