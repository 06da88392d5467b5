import type { InboxItemPlacement, InboxRecord, Outcome } from '../../src/contracts/inbox.js'
import type { AgentMessage, AgentMessageId } from '../../src/contracts/messages.js'
import type { JournalReplay } from '../../src/session/replayJournal.js'

export const id = (name: string) => name as AgentMessageId
export const message = (name: string, text = name): AgentMessage => ({
  id: id(name),
  content: [{ type: 'text', text }],
  source: { kind: 'user' },
})
export const add = (
  name: string,
  placement: InboxItemPlacement = 'queued',
  more: { at?: 'head'; turn?: number; maxSteps?: number } = {},
): InboxRecord => ({ op: 'add', message: message(name), placement, ...more })
export const replace = (name: string, text: string): InboxRecord => ({
  op: 'replace',
  message: message(name, text),
})
/** `name` now stands right before `before` (`null`: at the tail). */
export const move = (name: string, before: string | null): InboxRecord => ({
  op: 'move',
  id: id(name),
  before: before === null ? null : id(before),
})
export const promote = (name: string, to: 'steering' | 'head'): InboxRecord => ({
  op: 'promote',
  id: id(name),
  to,
})
export const removed: Outcome = { kind: 'discarded', reason: 'removed' }
export const settle = (name: string, outcome: Outcome = removed): InboxRecord => ({
  op: 'settle',
  id: id(name),
  outcome,
})

/** A replay as short strings: `id:placement` (`/turn` for a guard, `=text` when replaced). */
export const view = (replay: JournalReplay) => {
  const item = ({ message: m, placement, turn }: JournalReplay['queue'][number]) => {
    const block = m.content[0]
    const text = block?.type === 'text' && block.text !== m.id ? `=${block.text}` : ''
    return `${m.id}:${placement}${turn === undefined ? '' : `/${turn}`}${text}`
  }
  return {
    queue: replay.queue.map(item),
    outbox: replay.outbox.map(item),
    settled: [...replay.settled].map(([key, outcome]) => `${key}:${outcome.kind}`),
  }
}
