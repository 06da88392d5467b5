import type { InboxItem, InboxSnapshot } from '../../contracts/inbox.js'
import type { ContentBlock } from '../../contracts/messages.js'

const text = (content: readonly ContentBlock[]) =>
  content.map((b) => (b.type === 'text' ? b.text : '')).join('')

/** What the inbox list's buttons do. */
export type InboxActions = {
  edit(item: InboxItem, text: string): void
  remove(item: InboxItem): void
  promote(item: InboxItem): void
  move(item: InboxItem, index: number): void
  /** An edit opened (`true`) or ended: while one is open, later snapshots wait. */
  editing(open: boolean): void
}

const button = (label: string, testId: string, onClick: () => void) => {
  const b = document.createElement('button')
  b.type = 'button'
  b.textContent = label
  b.dataset.testid = testId
  b.addEventListener('click', onClick)
  return b
}

/** Replaces an item's text with an input: Enter saves (`replace`), Escape gives up. */
const startEdit = (li: HTMLElement, item: InboxItem, actions: InboxActions, done: () => void) => {
  const input = document.createElement('input')
  input.value = text(item.message.content)
  input.dataset.testid = 'edit-input'
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault()
      actions.edit(item, input.value)
      done()
    } else if (event.key === 'Escape') done()
  })
  li.replaceChildren(input)
  input.focus()
}

/** Draws what waits: the queue (in its order) then the staged steering and context. */
export const renderInbox = (list: HTMLElement, inbox: InboxSnapshot, actions: InboxActions) => {
  const items = [...inbox.queue, ...inbox.outbox].map((item) => {
    const li = document.createElement('li')
    li.dataset.testid = 'item'
    li.dataset.id = item.message.id
    li.dataset.placement = item.placement
    const placement = document.createElement('span')
    placement.className = 'placement'
    placement.textContent = item.placement
    const body = document.createElement('span')
    body.className = 'text'
    body.textContent = text(item.message.content)
    li.append(placement, body)
    li.append(
      button('edit', 'edit', () => {
        actions.editing(true)
        startEdit(li, item, actions, () => actions.editing(false))
      }),
    )
    li.append(button('remove', 'remove', () => actions.remove(item)))
    const index = inbox.queue.indexOf(item)
    if (index !== -1) {
      li.append(button('steer now', 'promote', () => actions.promote(item)))
      li.append(button('↑', 'up', () => actions.move(item, Math.max(0, index - 1))))
      li.append(button('↓', 'down', () => actions.move(item, index + 1)))
    }
    return li
  })
  list.replaceChildren(...items)
}
