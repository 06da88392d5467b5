import type { AgentEvent, SessionEvent, SessionEventOf } from '../contracts/events.js'
import type { AgentMessage, ContentBlock, MessageSource } from '../contracts/messages.js'
import { isHumanPrompt } from '../index.js'
import { errorText } from '../messages/errorText.js'
import { label } from '../testing.js'
import { budgetLine, decisionLine, requestLine } from './formatPauses.js'

export type Style = {
  readonly dim: (s: string) => string
  readonly bold: (s: string) => string
  readonly red: (s: string) => string
  readonly cyan: (s: string) => string
}
const ansi = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`
export const COLORS: Style = { dim: ansi(2, 22), bold: ansi(1, 22), red: ansi(31, 39), cyan: ansi(36, 39) }
export const PLAIN: Style = { dim: (s) => s, bold: (s) => s, red: (s) => s, cyan: (s) => s }

/**
 * The mark after an answer that was cut (R68: an interrupting steer; a cancel): the text stops
 * there, and says so, so that no one reads it as the whole answer.
 */
export const cut = (style: Style): string => `…${style.dim(' [cut]')}`

/** The text of the content, nothing else: what goes back into the input line to be sent again. */
export const textOf = (content: readonly ContentBlock[]): string =>
  content
    .map((b) => (b.type === 'text' ? b.text : b.type === 'tool-result' ? textOf(b.content) : ''))
    .join('')
    .trim()

/**
 * An image or a file as a short label (`[image image/png]`, `[file report.pdf]`). Never its bytes,
 * and never its URL either: a `data:` URL is the base64 again, and a long link drowns the line.
 */
const blockLabel = (block: ContentBlock): string | undefined => {
  if (block.type === 'image') return `[image ${block.mediaType}]`
  if (block.type === 'file') return `[file ${block.filename || block.mediaType}]`
  return undefined
}

/**
 * The content as people read it: its text, with each image or file as a label where it stands
 * (a space apart from the text around it; adjacent text blocks join as they are).
 */
export const shownText = (content: readonly ContentBlock[]): string => {
  let shown = ''
  let afterLabel = false
  for (const b of content) {
    const label = b.type === 'tool-result' ? shownText(b.content) : blockLabel(b)
    const text = b.type === 'text' ? b.text : label
    if (!text) continue
    const apart = (label !== undefined || afterLabel) && !/\s$/.test(shown) && !/^\s/.test(text)
    shown += apart && shown !== '' ? ` ${text}` : text
    afterLabel = label !== undefined
  }
  return shown.trim()
}

/**
 * Whose context a message is: what the person typed with `/inject` (an inject from this terminal
 * or an attached one) says `inject`; a plugin says its name; any other source its kind.
 */
const contextLabel = (source: MessageSource): string => {
  if (source.kind !== 'plugin') return source.kind
  const plugin = String(source.plugin)
  return plugin === 'cli' ? 'inject' : plugin
}

/** One transcript event as a line for people (`undefined` for bookkeeping events). */
export const formatDurable = (event: SessionEvent, style: Style): string | undefined => {
  switch (event.type) {
    case 'user/message': {
      const text = shownText(event.data.content)
      const source = event.data.source
      return isHumanPrompt(source)
        ? `${style.bold('you ›')} ${text}`
        : style.dim(`[${contextLabel(source)}] ${text}`)
    }
    case 'steering/message':
      return `${style.bold('you (steer) ›')} ${shownText(event.data.content)}`
    case 'assistant/message': {
      const text = textOf(event.data.content)
      if (!text) return undefined
      return `${style.cyan('assistant ›')} ${text}${event.data.interrupted ? cut(style) : ''}`
    }
    case 'tool/call':
      return style.dim(`  ⚙ ${event.data.call.name}(${event.data.call.arguments})`)
    case 'tool/result':
      return style.dim(
        `  ↳ ${event.data.result.isError ? 'error: ' : ''}${shownText(event.data.result.content)}`,
      )
    case 'approval/request':
      return requestLine(event.data, style)
    case 'approval/decision':
      return decisionLine(event.data, style)
    case 'budget/pause':
      return budgetLine(event.data, style)
    case 'compaction':
    case 'rollback':
    case 'fork':
      return style.dim(historyLine(event))
    case 'turn/end':
      return event.data.reason.kind === 'completed'
        ? undefined
        : style.dim(`(turn ${event.data.turn} ${event.data.reason.kind})`)
    default:
      return undefined
  }
}

/** A summary longer than this is cut in its line: the log keeps all of it. */
const SUMMARY_CHARS = 300

/** What a compaction, a rollback or a fork did to the conversation (R74, R77, R78). */
const historyLine = (event: SessionEventOf<'compaction' | 'rollback' | 'fork'>): string => {
  if (event.type === 'fork')
    return `(forked from session ${event.data.from} at the end of turn ${event.data.atTurn})`
  if (event.type === 'rollback')
    return event.data.toTurn === 0
      ? '(rolled back to before the first turn)'
      : `(rolled back to the end of turn ${event.data.toTurn})`
  const summary = textOf(event.data.summary)
  const cut = summary.length > SUMMARY_CHARS ? `${summary.slice(0, SUMMARY_CHARS - 1)}…` : summary
  return `(compacted: the messages before event ${event.data.keptFromSeq} are now a summary) ${cut}`
}

/** A live event as a line: errors always, the rest only with `--events`. */
export const formatLive = (event: AgentEvent, style: Style, all: boolean): string | undefined => {
  if (event.type === 'agent/error') {
    return style.red(`error (turn ${event.turn}, step ${event.step}): ${errorText(event.error)}`)
  }
  if (!all || event.type === 'agent/stream/delta') return undefined
  return style.dim(`· ${label(event)}`)
}

/** What a `discard` dropped, as a line: `dropped 2 waiting: "first" · "second"`. */
export const droppedLine = (messages: readonly AgentMessage[]): string =>
  `dropped ${messages.length} waiting: ${messages.map((m) => JSON.stringify(shownText(m.content))).join(' · ')}`
