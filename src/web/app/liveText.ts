import type { TimelineEntry } from '../../timeline/types.js'
import type { LiveTextPiece } from '../liveTextPieces.js'

/** The answer being streamed, as the page holds it (R85): its step and its text so far. */
export type LiveText = { readonly turn: number; readonly step: number; readonly text: string }

type Step = { readonly turn: number; readonly step: number }

/**
 * Where the page stands with live text: what it shows, and the last step whose durable record
 * came. Steps come in order (turn numbers only grow, even after a rollback), so a piece of that
 * step or an earlier one is late and must not show a second copy of its text.
 */
export type LiveTextState = { readonly shown: LiveText | undefined; readonly closed: Step }

export const noLiveText: LiveTextState = { shown: undefined, closed: { turn: 0, step: 0 } }

const notAfter = (a: Step, b: Step) => a.turn < b.turn || (a.turn === b.turn && a.step <= b.step)

/**
 * The state after `piece`: its text joins what is shown of the same step at `piece.at`; a piece
 * at 0 starts the text again. A piece of a closed step, or one that would leave a gap, changes
 * nothing. Pure.
 */
export const withPiece = (state: LiveTextState, piece: LiveTextPiece): LiveTextState => {
  const { turn, step, at, text } = piece
  if (notAfter(piece, state.closed)) return state
  const held = state.shown !== undefined && state.shown.turn === turn && state.shown.step === step
  if (at === 0) return { ...state, shown: { turn, step, text } }
  if (!held || state.shown!.text.length < at) return state
  return { ...state, shown: { turn, step, text: state.shown!.text.slice(0, at) + text } }
}

/**
 * The state after a durable event: the step's `assistant/message` (which holds the text, cut or
 * not, R68) or its `step/end` (a step cut before any text writes no message) closes the step, and
 * the turn's end closes whatever it streamed. What it closes is no longer shown: the chat draws the
 * durable message in its place.
 */
export const withEntry = (state: LiveTextState, entry: TimelineEntry): LiveTextState => {
  if (entry.stream !== 'transcript') return state
  const e = entry.event
  if (e.type === 'assistant/message' || e.type === 'step/end') {
    const closed = { turn: e.data.turn, step: e.data.step }
    return { shown: state.shown && notAfter(state.shown, closed) ? undefined : state.shown, closed }
  }
  if (e.type === 'turn/end') {
    const closed = { turn: e.data.turn, step: Number.POSITIVE_INFINITY }
    return { shown: state.shown?.turn === e.data.turn ? undefined : state.shown, closed }
  }
  return state
}

/** The state of a page that read `entries` (a snapshot): every step they record is closed. */
export const fromEntries = (entries: readonly TimelineEntry[]): LiveTextState =>
  entries.reduce(withEntry, noLiveText)

/**
 * Shows `shown` as the last line of the chat `list`, classed `streaming` (text only: what the model
 * says never becomes markup), or removes that line when nothing streams.
 */
export const renderLiveText = (list: HTMLElement, shown: LiveText | undefined): void => {
  let li = list.querySelector<HTMLElement>(':scope > li.streaming')
  if (shown === undefined || shown.text === '') return li?.remove()
  if (!li) {
    li = document.createElement('li')
    li.className = 'streaming'
    li.dataset.testid = 'streaming'
    const who = document.createElement('span')
    who.className = 'who'
    who.textContent = 'assistant:'
    const body = document.createElement('span')
    body.className = 'text'
    li.append(who, body)
  }
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4
  ;(li.querySelector('.text') as HTMLElement).textContent = shown.text
  // Always last: the chat is drawn anew on each entry, and this line follows what it draws.
  if (li !== list.lastElementChild) list.append(li)
  if (atBottom) list.scrollTop = list.scrollHeight
}
