import type { SessionEvent } from '../../contracts/events.js'
import type { ContentBlock } from '../../contracts/messages.js'
import { type HistoryFact, HistoryFacts } from '../../timeline/historyFacts.js'
import { seqRange, turnList } from '../../timeline/layoutHistory.js'
import type { TimelineEntry } from '../../timeline/types.js'
import { type MediaBlock, mediaElement, mediaOf } from './renderMedia.js'

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

/**
 * A chat line: who said it and what, and its mark if any. `detail` is a longer text shown folded
 * under the line (a compaction's summary).
 */
export type ChatLine = {
  readonly who: string
  readonly text: string
  readonly mark?: ChatMark
  readonly detail?: string
  /** The message's images and files (R86), drawn after its text. */
  readonly media?: readonly MediaBlock[]
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** The line of a compaction, a rollback or a fork (R79): what it did to the conversation. */
export const historyLine = (fact: HistoryFact): ChatLine => {
  switch (fact.kind) {
    case 'compaction':
      return {
        who: 'compacted',
        text: `${count(fact.replaced.length, 'earlier message')}${seqRange(fact.replaced)} replaced by a summary; ${count(fact.kept, 'message')} after them kept`,
        detail: fact.summary,
      }
    case 'rollback': {
      const back =
        fact.restored > 0 ? `; ${count(fact.restored, 'message')} a compaction had replaced came back` : ''
      return fact.undone.length === 0
        ? { who: 'rolled back', text: `to the end of turn ${fact.toTurn}: nothing to undo` }
        : {
            who: 'rolled back',
            text: `${turnList(fact.undone)} undone (back to the end of turn ${fact.toTurn})${back}`,
          }
    }
    case 'fork':
      return { who: 'forked', text: `from session ${fact.from} at the end of turn ${fact.atTurn}` }
  }
}

/**
 * The chat line of one durable event; undefined for events the chat does not show. `fact`: what
 * it did to the conversation, for a compaction, a rollback or a fork (`HistoryFacts` tells).
 */
export const chatLine = (e: SessionEvent, fact?: HistoryFact): ChatLine | undefined => {
  if (fact) return historyLine(fact)
  const line = textLine(e)
  const media = line && mediaIn(e)
  return media && media.length > 0 ? { ...line, media } : line
}

const mediaIn = (e: SessionEvent): MediaBlock[] => {
  switch (e.type) {
    case 'user/message':
    case 'steering/message':
    case 'assistant/message':
      return mediaOf(e.data.content)
    case 'tool/result':
      return mediaOf(e.data.result.content)
    default:
      return []
  }
}

const textLine = (e: SessionEvent): ChatLine | undefined => {
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
    case 'approval/decision': {
      // Which call, and who decided: a decision without a reason still says what it decided.
      const { callId, source, reason } = e.data
      return { who: e.data.decision, text: `${callId} by ${source.kind}${reason ? `: ${reason}` : ''}` }
    }
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
 * Draws the transcript as chat lines (text only: user data never becomes markup; images and
 * files are elements built by `mediaElement`). A marked line
 * gets the mark as a class and as a tag after its text. A compaction's summary folds under its
 * line; the lines a rollback took out of the conversation stay, classed `rolled-back`.
 */
export const renderChat = (list: HTMLElement, entries: readonly TimelineEntry[]) => {
  const items: HTMLElement[] = []
  // The lines are drawn anew on each entry: a summary someone opened stays open.
  const opened = new Set<string | undefined>()
  list.querySelectorAll('details[open]').forEach((details) => {
    opened.add(details.closest('li')?.dataset.seq)
  })
  const facts = new HistoryFacts()
  const bySeq = new Map<number, HTMLElement>()
  for (const entry of entries) {
    if (entry.stream !== 'transcript') continue
    const fact = facts.see(entry.event)
    if (fact?.kind === 'rollback')
      for (const seq of fact.removed) bySeq.get(seq)?.classList.add('rolled-back')
    const line = chatLine(entry.event, fact)
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
    bySeq.set(entry.event.seq, li)
    for (const block of line.media ?? []) li.append(mediaElement(block))
    if (line.detail !== undefined) li.append(folded(line.detail, opened.has(li.dataset.seq)))
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

/** A long text folded under its line: `summary` opens it. */
const folded = (text: string, open: boolean): HTMLElement => {
  const details = document.createElement('details')
  details.open = open
  details.dataset.testid = 'detail'
  const summary = document.createElement('summary')
  summary.textContent = 'summary'
  const body = document.createElement('div')
  body.className = 'detail'
  body.textContent = text
  details.append(summary, body)
  return details
}
