import type { Agent } from '../contracts/agent.js'
import type { InboxSnapshot } from '../contracts/inbox.js'
import type { AgentMessageId, SendInput } from '../contracts/messages.js'
import { errorText } from '../messages/errorText.js'
import { itemText, waitingItems } from './inboxList.js'

/** The input line after an edit key, and what to tell the user. */
export type Edited = { readonly buffer: string; readonly notice?: string }

/**
 * Editing a queued item in the terminal's input line. Up takes the last queued item into the line
 * (Up again: the one before it; Down: the one after it, and past the last the line you had
 * before). Enter puts the edited text back in place with `replace`: same id, same position, so it
 * still runs when it would have. Esc cancels the edit and the item stays as it was. An item that
 * leaves the queue while it is edited (its turn started) ends the edit and keeps the text, which
 * Enter then sends as a new message: an edit is never lost silently.
 */
export class QueueEditor {
  private editing: { readonly id: AgentMessageId; readonly draft: string } | undefined

  constructor(private readonly agent: Agent) {}

  /** The id of the item being edited. */
  get id(): AgentMessageId | undefined {
    return this.editing?.id
  }

  /** Its number in the list of waiting items. */
  get number(): number {
    return waitingItems(this.agent.inbox).findIndex((i) => i.message.id === this.editing?.id) + 1
  }

  /** Up: the last queued item, or the one before the item being edited (the first one stays). */
  up(buffer: string): Edited {
    const queue = this.agent.inbox.queue
    const at = this.editing ? queue.findIndex((i) => i.message.id === this.editing?.id) : queue.length
    const item = queue[Math.max(0, at - 1)]
    if (!item) return { buffer, notice: 'nothing is queued to edit' }
    this.editing = { id: item.message.id, draft: this.editing?.draft ?? buffer }
    return { buffer: itemText(item) }
  }

  /** Down: the next queued item; past the last one, the edit ends and the line you had is back. */
  down(buffer: string): Edited {
    if (!this.editing) return { buffer }
    const queue = this.agent.inbox.queue
    const item = queue[queue.findIndex((i) => i.message.id === this.editing?.id) + 1]
    if (!item) return this.cancel()
    this.editing = { id: item.message.id, draft: this.editing.draft }
    return { buffer: itemText(item) }
  }

  /** Esc: the item stays as it was; the line you had before Up is back. */
  cancel(): Edited {
    const buffer = this.editing?.draft ?? ''
    this.editing = undefined
    return { buffer }
  }

  /** Enter: `replace` in place (same id, same position); an emptied line drops the item. */
  save(text: string): Edited {
    const editing = this.editing
    if (!editing) return { buffer: text }
    this.editing = undefined
    const trimmed = text.trim()
    try {
      if (trimmed === '') this.agent.remove(editing.id)
      else if (trimmed !== this.textOf(editing.id))
        this.agent.replace(editing.id, this.edited(editing.id, trimmed))
    } catch (error) {
      return { buffer: text, notice: errorText(error) }
    }
    // `replace` does nothing for an item that no longer waits (its turn was being claimed).
    if (trimmed !== '' && this.textOf(editing.id) !== trimmed) return this.left(text)
    return { buffer: editing.draft }
  }

  /** Ctrl-P: steers the item being edited (saved first), or the last queued one, into the running turn. */
  promote(buffer: string): Edited {
    const editing = this.editing
    const saved = editing ? this.save(buffer) : { buffer }
    if (saved.notice) return saved
    const id = editing?.id ?? this.agent.inbox.queue.at(-1)?.message.id
    if (id === undefined) return { buffer, notice: 'nothing is queued to steer in' }
    try {
      this.agent.promote(id)
    } catch (error) {
      return { buffer: saved.buffer, notice: errorText(error) }
    }
    return saved
  }

  /** After each inbox change: ends the edit when its item left the queue. */
  check(inbox: InboxSnapshot, buffer: string): Edited | undefined {
    const id = this.editing?.id
    if (id === undefined || inbox.queue.some((i) => i.message.id === id)) return undefined
    this.editing = undefined
    return this.left(buffer)
  }

  private left(buffer: string): Edited {
    this.editing = undefined
    return { buffer, notice: 'that item already left the queue; Enter sends your text as a new message' }
  }

  /**
   * The item with its text edited: the line holds only the text, so an image or a file in it is
   * kept as it was (after the text), and so is its source.
   */
  private edited(id: AgentMessageId, text: string): SendInput {
    const message = waitingItems(this.agent.inbox).find((i) => i.message.id === id)?.message
    const media = message?.content.filter((b) => b.type === 'image' || b.type === 'file') ?? []
    if (!message || media.length === 0) return text
    return { content: [{ type: 'text', text }, ...media], source: message.source }
  }

  private textOf(id: AgentMessageId): string | undefined {
    const item = waitingItems(this.agent.inbox).find((i) => i.message.id === id)
    return item && itemText(item)
  }
}
