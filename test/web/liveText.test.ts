/**
 * The page's live text, as data (R85): how pieces of the streamed answer join, and which durable
 * events close a step so that its text is shown once; and the pieces the server makes of `text$`.
 */
import { from, lastValueFrom, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src/index.js'
import type { TimelineEntry } from '../../src/timeline/types.js'
import {
  fromEntries,
  type LiveTextState,
  noLiveText,
  withEntry,
  withPiece,
} from '../../src/web/app/liveText.js'
import { type LiveTextPiece, liveTextPieces } from '../../src/web/liveTextPieces.js'
import { deepFreeze } from '../support/deepFreeze.js'

const piece = (turn: number, step: number, at: number, text: string): LiveTextPiece => ({
  turn,
  step,
  at,
  text,
})
const shown = (turn: number, step: number, text: string, closed = { turn: 0, step: 0 }): LiveTextState => ({
  shown: { turn, step, text },
  closed,
})
const entry = (event: Omit<SessionEvent, 'seq'>, seq = 1): TimelineEntry =>
  ({ seq, t: 0, stream: 'transcript', event: { seq, ...event } }) as TimelineEntry

describe('withPiece', () => {
  const cases: [string, LiveTextState, LiveTextPiece, LiveTextState][] = [
    ['R85: a first piece is shown', noLiveText, piece(1, 1, 0, 'Once '), shown(1, 1, 'Once ')],
    [
      'R85: a piece joins the text at its offset',
      shown(1, 1, 'Once '),
      piece(1, 1, 5, 'upon'),
      shown(1, 1, 'Once upon'),
    ],
    [
      'R85: a piece at 0 starts the text again',
      shown(1, 1, 'Once '),
      piece(1, 1, 0, 'Twice'),
      shown(1, 1, 'Twice'),
    ],
    ['R85: a new step replaces the old one', shown(1, 1, 'Once '), piece(1, 2, 0, 'Bye'), shown(1, 2, 'Bye')],
  ]
  it.each(cases)('%s', (_name, state, input, expected) => {
    expect(withPiece(deepFreeze(state), deepFreeze(input))).toEqual(expected)
  })

  const ignored: [string, LiveTextState, LiveTextPiece][] = [
    [
      'R85: a piece of a closed step shows nothing again',
      { shown: undefined, closed: { turn: 1, step: 1 } },
      piece(1, 1, 0, 'Once'),
    ],
    [
      'R85: a piece of an earlier turn is late',
      { shown: undefined, closed: { turn: 2, step: 1 } },
      piece(1, 3, 0, 'x'),
    ],
    ['R85: a piece that would leave a gap is dropped', shown(1, 1, 'Once '), piece(1, 1, 9, 'x')],
    ['R85: a piece of another step not at 0 is dropped', shown(1, 1, 'Once '), piece(1, 2, 3, 'x')],
  ]
  it.each(ignored)('%s (the same state)', (_name, state, input) => {
    const frozen = deepFreeze(state)
    expect(withPiece(frozen, deepFreeze(input))).toBe(frozen)
  })
})

describe('withEntry', () => {
  const message = {
    type: 'assistant/message',
    data: { turn: 1, step: 1, content: [{ type: 'text', text: 'Once' }] },
  } as const
  const cases: [string, LiveTextState, TimelineEntry, LiveTextState][] = [
    [
      'R85: the step’s assistant/message closes it',
      shown(1, 1, 'Once'),
      entry(message),
      { shown: undefined, closed: { turn: 1, step: 1 } },
    ],
    [
      'R85, R68: a step/end closes a step cut before any message',
      shown(1, 1, 'On'),
      entry({ type: 'step/end', data: { turn: 1, step: 1, interrupted: true } }),
      { shown: undefined, closed: { turn: 1, step: 1 } },
    ],
    [
      'R85: the turn’s end closes what it streamed',
      shown(1, 2, 'x'),
      entry({ type: 'turn/end', data: { turn: 1, reason: { kind: 'aborted' } } }),
      { shown: undefined, closed: { turn: 1, step: Number.POSITIVE_INFINITY } },
    ],
    [
      'R85: an earlier step’s end leaves the streaming one shown',
      shown(1, 2, 'x'),
      entry({ type: 'step/end', data: { turn: 1, step: 1 } }),
      shown(1, 2, 'x', { turn: 1, step: 1 }),
    ],
  ]
  it.each(cases)('%s', (_name, state, input, expected) => {
    expect(withEntry(deepFreeze(state), deepFreeze(input))).toEqual(expected)
  })

  it('R85: other events, and live ones, return the same state', () => {
    const state = deepFreeze(shown(1, 1, 'Once'))
    expect(withEntry(state, entry({ type: 'step/start', data: { turn: 1, step: 1 } }))).toBe(state)
    const live = {
      seq: 2,
      t: 0,
      stream: 'events',
      event: { type: 'agent/idle', data: {} },
    } as unknown as TimelineEntry
    expect(withEntry(state, live)).toBe(state)
  })

  it('R85: a snapshot closes every step it records', () => {
    const entries = [entry(message, 1), entry({ type: 'step/end', data: { turn: 1, step: 1 } }, 2)]
    expect(fromEntries(entries)).toEqual({ shown: undefined, closed: { turn: 1, step: 1 } })
  })
})

describe('liveTextPieces', () => {
  it('R85: the text so far first, then each delta; a new step starts at 0', async () => {
    const text$ = from([
      { turn: 1, step: 1, text: 'Once ' },
      { turn: 1, step: 1, text: 'Once upon' },
      { turn: 1, step: 2, text: 'Bye' },
      { turn: 2, step: 1, text: 'Hi' },
    ])
    expect(await lastValueFrom(liveTextPieces(text$).pipe(toArray()))).toEqual([
      piece(1, 1, 0, 'Once '),
      piece(1, 1, 5, 'upon'),
      piece(1, 2, 0, 'Bye'),
      piece(2, 1, 0, 'Hi'),
    ])
  })
})
