import { describe, expect, it } from 'vitest'
import { parseCommand } from '../../src/cli/commands.js'
import { inboxLines, itemNumbered } from '../../src/cli/inboxList.js'
import { receiptLine } from '../../src/cli/receipts.js'
import type { InboxSnapshot } from '../../src/contracts/inbox.js'
import type { AgentMessage, AgentMessageId } from '../../src/contracts/messages.js'

const message = (id: string, text: string) =>
  ({ id, content: [{ type: 'text', text }], source: { kind: 'user' } }) as unknown as AgentMessage
const inbox: InboxSnapshot = {
  queue: [
    { message: message('q1', 'what next'), placement: 'queued' },
    { message: message('q2', 'later,\n  maybe'), placement: 'parked' },
  ],
  outbox: [{ message: message('s1', 'be brief'), placement: 'steering' }],
}

describe('the inbox commands of the terminal app', () => {
  it.each([
    ['/promote 2', { kind: 'promote', n: 2 }],
    ['/drop 1', { kind: 'drop', n: 1 }],
    ['  /move 3 1 ', { kind: 'move', n: 3, to: 1 }],
    ['/inbox', { kind: 'inbox' }],
    ['/drop', { kind: 'usage', text: 'usage: /drop N (N from /inbox)' }],
    ['/promote x', { kind: 'usage', text: 'usage: /promote N (N from /inbox)' }],
    ['/promote 1 2', { kind: 'usage', text: 'usage: /promote N (N from /inbox)' }],
    ['/move 1', { kind: 'usage', text: expect.stringContaining('usage: /move N M') }],
    ['/move 1 -2', { kind: 'usage', text: expect.stringContaining('usage: /move N M') }],
    ['/followup later', { kind: 'queue', text: 'later' }],
    ['/followup', { kind: 'unknown', text: '/followup' }],
  ])('R43, R45, R46: %j parses as %j', (line, command) => {
    expect(parseCommand(line)).toEqual(command)
  })

  it('R41: items are numbered queue first, then the outbox; a bad number says which there are', () => {
    expect(itemNumbered(inbox, 3)).toBe(inbox.outbox[0])
    expect(itemNumbered(inbox, 0)).toBe(
      'no item 0: the waiting items are numbered 1 to 3 (/inbox lists them)',
    )
    expect(itemNumbered({ queue: [], outbox: [] }, 1)).toBe('no item 1: nothing is waiting')
  })

  it('R41: the list is one line per item, cut to the width, the edited one marked, the rest counted', () => {
    const lines = inboxLines(inbox, { columns: 26, limit: 2, editing: 'q2' as AgentMessageId })
    expect(lines).toEqual([
      '  1 queued · what next',
      '  2 parked · l…  (editing)',
      '  … 1 more (/inbox lists all)',
    ])
  })

  it('R42: a receipt for each kind of outcome', () => {
    expect(receiptLine({ kind: 'delivered', as: 'prompt', turn: 4, seq: 9 })).toBe('✓ ran as turn 4')
    expect(receiptLine({ kind: 'delivered', as: 'steering', turn: 2, step: 3, seq: 9 })).toBe(
      '✓ steered into 2.3',
    )
    expect(receiptLine({ kind: 'delivered', as: 'context', seq: 9 })).toBe('✓ noted (context)')
    expect(receiptLine({ kind: 'discarded', reason: 'removed' })).toBe('✗ dropped (removed)')
    expect(receiptLine({ kind: 'blocked', reason: new Error('not now') })).toBe('✗ blocked (not now)')
  })
})
