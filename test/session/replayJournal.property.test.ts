/**
 * Properties of the journal fold over random journals: it agrees with a plain array model of the
 * rules (so the linked lanes are right), and compaction never changes what a journal folds to,
 * now or after more records follow and more ids are delivered.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { InboxRecord, Outcome } from '../../src/contracts/inbox.js'
import { compactRecords } from '../../src/session/compactJournal.js'
import { replayJournal } from '../../src/session/replayJournal.js'
import { add, move, promote, removed, replace, settle, view } from '../support/inboxRecords.js'

const names = ['A', 'B', 'C', 'D', 'E', 'F']
const name = fc.constantFrom(...names)
const blocked: Outcome = { kind: 'blocked', reason: 'no' }
const record: fc.Arbitrary<InboxRecord> = fc.oneof(
  fc
    .tuple(
      name,
      fc.constantFrom('queued', 'parked', 'steering', 'context'),
      fc.boolean(),
      fc.option(fc.nat(3)),
    )
    .map(([n, placement, head, turn]) =>
      add(n, placement, { ...(head ? { at: 'head' as const } : {}), ...(turn ? { turn } : {}) }),
    ),
  fc.tuple(name, fc.string({ maxLength: 3 })).map(([n, text]) => replace(n, `${n}${text}`)),
  fc.tuple(name, fc.option(name)).map(([n, before]) => move(n, before)),
  fc
    .tuple(name, fc.constantFrom('steering', 'head') as fc.Arbitrary<'steering' | 'head'>)
    .map(([n, to]) => promote(n, to)),
  fc.tuple(name, fc.constantFrom(removed, blocked)).map(([n, outcome]) => settle(n, outcome)),
)
const journal = fc.array(record, { maxLength: 40 })
const ids = fc.subarray(names)

type Item = { id: string; placement: string; turn: number | undefined; text: string }

/** The rules of `replayJournal`, written the plain way: arrays, `findIndex`, `splice`. */
const model = (records: readonly InboxRecord[], delivered: ReadonlySet<string>) => {
  let queue: Item[] = []
  let outbox: Item[] = []
  const seen = new Set<string>()
  const settled = new Map<string, string>()
  const take = (lane: Item[], id: string) => {
    const at = lane.findIndex((item) => item.id === id)
    return at === -1 ? undefined : lane.splice(at, 1)[0]
  }
  for (const r of records) {
    if (r.op === 'settle') {
      take(queue, r.id) ?? take(outbox, r.id)
      if (!settled.has(r.id)) settled.set(r.id, r.outcome.kind)
      continue
    }
    const id = r.op === 'add' || r.op === 'replace' ? r.message.id : r.id
    if (r.op === 'add') {
      if (seen.has(id) || settled.has(id)) continue
      seen.add(id)
      const block = r.message.content[0]
      const item = {
        id,
        placement: r.placement,
        turn: r.turn,
        text: block?.type === 'text' ? block.text : '',
      }
      if (r.placement === 'steering' || r.placement === 'context') outbox = [...outbox, item]
      else queue = r.at === 'head' ? [item, ...queue] : [...queue, item]
    } else if (r.op === 'replace') {
      const item = queue.find((i) => i.id === id) ?? outbox.find((i) => i.id === id)
      const block = r.message.content[0]
      if (item) item.text = block?.type === 'text' ? block.text : ''
    } else {
      if (r.op === 'move' && r.before === id) continue
      const item = take(queue, id)
      if (!item) continue
      if (r.op === 'move') {
        const at = queue.findIndex((i) => i.id === r.before)
        queue.splice(at === -1 ? queue.length : at, 0, item)
      } else if (r.to === 'steering') outbox.push({ ...item, placement: 'steering' })
      else queue.unshift({ ...item, placement: 'queued' })
    }
  }
  const show = (i: Item) =>
    `${i.id}:${i.placement}${i.turn === undefined ? '' : `/${i.turn}`}${i.text === i.id ? '' : `=${i.text}`}`
  const waits = (i: Item) => !delivered.has(i.id)
  return {
    queue: queue.filter(waits).map(show),
    outbox: outbox.filter(waits).map(show),
    settled: [...settled].map(([id, kind]) => `${id}:${kind}`),
  }
}

describe('replayJournal over random journals', () => {
  it('R51: folds every journal as the plain array model of its rules does', () => {
    fc.assert(
      fc.property(journal, ids, (records, delivered) => {
        const set = new Set(delivered)
        expect(view(replayJournal(records, set))).toStrictEqual(model(records, set))
      }),
      { numRuns: 500 },
    )
  })

  it('R50: a compacted journal folds as the whole one, also after more records and deliveries', () => {
    fc.assert(
      fc.property(journal, journal, ids, ids, (before, after, early, late) => {
        const atOpen = new Set(early)
        const compacted = compactRecords(replayJournal(before, atOpen))
        expect(compacted.length).toBeLessThanOrEqual(before.length)
        expect(view(replayJournal(compacted, atOpen))).toStrictEqual(view(replayJournal(before, atOpen)))
        const later = new Set([...early, ...late])
        expect(view(replayJournal([...compacted, ...after], later))).toStrictEqual(
          view(replayJournal([...before, ...after], later)),
        )
      }),
      { numRuns: 500 },
    )
  })
})
