import type { SessionEvent } from '../../contracts/events.js'
import type { ContentBlock } from '../../contracts/messages.js'
import type { TimelineEntry } from '../../timeline/types.js'

const text = (content: readonly ContentBlock[]): string =>
  content
    .map((b) =>
      b.type === 'text'
        ? b.text
        : b.type === 'tool-call'
          ? `→ ${b.name}(${b.arguments})`
          : b.type === 'tool-result'
            ? text(b.content)
            : '',
    )
    .join(' ')
    .trim()

/**
 * What the chat marks on a line: an answer an interrupting steer cut (R68), a call cancelled by
 * `cancelToolCall` (R71).
 */
export type ChatMark = 'interrupted' | 'cancelled'

/** A chat line: who said it and what, and its mark if any. */
export type ChatLine = { readonly who: string; readonly text: string; readonly mark?: ChatMark }

/** The chat line of one durable event; undefined for events the chat does not show. */
export const chatLine = (e: SessionEvent): ChatLine | undefined => {
  switch (e.type) {
    case 'user/message':
      return { who: e.data.source.kind === 'user' ? 'you' : e.data.source.kind, text: text(e.data.content) }
    case 'steering/message':
      return { who: 'steer', text: text(e.data.content) }
    case 'assistant/message':
      return {
        who: 'assistant',
        text: text(e.data.content),
        ...(e.data.interrupted ? { mark: 'interrupted' as const } : {}),
      }
    case 'tool/result':
      return {
        who: 'tool',
        text: text(e.data.result.content),
        ...(e.data.result.code === 'CANCELLED' ? { mark: 'cancelled' as const } : {}),
      }
    case 'approval/request':
      return { who: 'approval?', text: `${e.data.name}(${e.data.arguments})` }
    case 'approval/decision':
      return { who: e.data.decision, text: e.data.reason ?? '' }
    case 'budget/pause':
      return {
        who: 'budget',
        text: `paused: ${e.data.usage.totalTokens} tokens, ${e.data.usage.requests} requests used`,
      }
    case 'turn/end':
      return e.data.reason.kind === 'completed'
        ? undefined
        : { who: `turn ${e.data.turn}`, text: `ended: ${e.data.reason.kind}` }
    default:
      return undefined
  }
}

/**
 * Draws the transcript as chat lines (text only: user data never becomes markup). A marked line
 * gets the mark as a class and as a tag after its text.
 */
export const renderChat = (list: HTMLElement, entries: readonly TimelineEntry[]) => {
  const items: HTMLElement[] = []
  for (const entry of entries) {
    if (entry.stream !== 'transcript') continue
    const line = chatLine(entry.event)
    if (!line) continue
    const li = document.createElement('li')
    li.className = entry.event.type.replace('/', '-')
    li.dataset.seq = String(entry.event.seq)
    const who = document.createElement('span')
    who.className = 'who'
    who.textContent = `${line.who}:`
    const body = document.createElement('span')
    body.className = 'text'
    body.textContent = line.text
    li.append(who, body)
    if (line.mark) {
      li.classList.add(line.mark)
      const tag = document.createElement('span')
      tag.className = 'mark'
      tag.dataset.testid = 'mark'
      tag.textContent = line.mark
      li.append(tag)
    }
    items.push(li)
  }
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4
  list.replaceChildren(...items)
  if (atBottom) list.scrollTop = list.scrollHeight
}
