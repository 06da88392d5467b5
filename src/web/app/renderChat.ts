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

/** Who said it and what, for one durable event; undefined for events the chat does not show. */
export const chatLine = (e: SessionEvent): { who: string; text: string } | undefined => {
  switch (e.type) {
    case 'user/message':
      return { who: e.data.source.kind === 'user' ? 'you' : e.data.source.kind, text: text(e.data.content) }
    case 'steering/message':
      return { who: 'steer', text: text(e.data.content) }
    case 'assistant/message':
      return { who: 'assistant', text: text(e.data.content) }
    case 'tool/result':
      return { who: 'tool', text: text(e.data.result.content) }
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

/** Draws the transcript as chat lines (text only: user data never becomes markup). */
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
    items.push(li)
  }
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4
  list.replaceChildren(...items)
  if (atBottom) list.scrollTop = list.scrollHeight
}
