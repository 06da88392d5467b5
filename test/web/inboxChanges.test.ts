/**
 * The inbox change frames of `serve`: folding the changes between two snapshots into the first
 * gives the second, and each change sends an item whole only when it is new or changed.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { InboxItem, InboxItemPlacement, InboxSnapshot } from '../../src/contracts/inbox.js'
import type { AgentMessage, AgentMessageId } from '../../src/contracts/messages.js'
import { applyInboxChanges, type InboxChange, inboxChanges } from '../../src/web/inboxChanges.js'
import { deepFreeze } from '../support/deepFreeze.js'

const message = (id: string, text = id): AgentMessage =>
  ({ id: id as AgentMessageId, content: [{ type: 'text', text }], source: { kind: 'user' } }) as AgentMessage
const items = new Map<string, InboxItem>()
/** One frozen item per id and placement, as the agent's snapshots share an unchanged message. */
const item = (id: string, placement: InboxItemPlacement = 'queued'): InboxItem => {
  const key = `${id}:${placement}`
  if (!items.has(key)) items.set(key, deepFreeze({ message: message(id), placement }))
  return items.get(key)!
}
const inbox = (queue: string, outbox = ''): InboxSnapshot =>
  deepFreeze({
    queue: [...queue].map((id) => item(id)),
    outbox: [...outbox].map((id) => item(id, 'steering')),
  })

const ops = (changes: readonly InboxChange[]) =>
  changes.map((c) =>
    c.op === 'remove'
      ? `remove ${c.id}`
      : `${c.op} ${c.op === 'put' ? c.item.message.id : c.id} ${c.list}@${c.index}`,
  )

describe('inboxChanges', () => {
  // [name, before, after, the changes sent]
  const rows: [string, InboxSnapshot, InboxSnapshot, string[]][] = [
    ['nothing changed', inbox('abc'), inbox('abc'), []],
    ['enqueue at the tail', inbox('abc'), inbox('abcd'), ['put d queue@3']],
    ['enqueue at the head (an interrupt)', inbox('abc'), inbox('dabc'), ['put d queue@0']],
    ['dequeue the head', inbox('abc'), inbox('bc'), ['remove a']],
    ['discard one in the middle', inbox('abc'), inbox('ac'), ['remove b']],
    ['move one down by one', inbox('abcd'), inbox('bacd'), ['move a queue@1']],
    ['move the head to the tail', inbox('abcde'), inbox('bcdea'), ['move a queue@4']],
    ['move the tail to the head', inbox('abcde'), inbox('eabcd'), ['move e queue@0']],
    ['promote to steering', inbox('abc'), inbox('ac', 'b'), ['put b outbox@0']],
    [
      'cancel: everything goes',
      inbox('abc', 'd'),
      inbox(''),
      ['remove a', 'remove b', 'remove c', 'remove d'],
    ],
  ]
  it.each(rows)('R41: %s', (_name, before, after, expected) => {
    const changes = inboxChanges(before, after)
    expect(ops(changes)).toStrictEqual(expected)
    expect(applyInboxChanges(before, changes)).toStrictEqual({ queue: after.queue, outbox: after.outbox })
  })

  it('R41: a replaced text is sent whole, in place', () => {
    const before = inbox('abc')
    const replaced = deepFreeze({ message: message('b', 'new text'), placement: 'queued' as const })
    const after = deepFreeze({ queue: [item('a'), replaced, item('c')], outbox: [] })
    expect(inboxChanges(before, after)).toStrictEqual([
      { op: 'put', list: 'queue', index: 1, item: replaced },
    ])
  })

  it('R41: a queued prompt made anew for each snapshot, with the same text, is not sent again', () => {
    const before = inbox('ab')
    const again = {
      message: { ...message('b'), content: [{ type: 'text', text: 'b' }] },
      placement: 'queued',
    }
    const after = deepFreeze({ queue: [item('a'), again as InboxItem], outbox: [] })
    expect(inboxChanges(before, after)).toStrictEqual([])
  })

  it('R41: folding the changes into any snapshot gives the next one, each item sent whole at most once', () => {
    const ids = 'abcdefgh'
    const snapshot = fc
      .tuple(fc.shuffledSubarray([...ids]), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }))
      .chain(([present, outboxed]) =>
        fc.nat(present.length).map((split) => {
          const queue = present.slice(0, split).filter((id) => !outboxed[ids.indexOf(id)])
          const outbox = present.slice(split).filter((id) => outboxed[ids.indexOf(id)])
          return inbox(queue.join(''), outbox.join(''))
        }),
      )
    fc.assert(
      fc.property(snapshot, snapshot, (before, after) => {
        const changes = inboxChanges(before, after)
        expect(applyInboxChanges(before, changes)).toStrictEqual({ queue: after.queue, outbox: after.outbox })
        const sent = changes.flatMap((c) => (c.op === 'put' ? [c.item.message.id] : []))
        expect(new Set(sent).size).toBe(sent.length)
        const known = new Set([...before.queue, ...before.outbox])
        for (const c of changes) if (c.op === 'put') expect(known.has(c.item)).toBe(false)
      }),
      { numRuns: 500 },
    )
  })
})
