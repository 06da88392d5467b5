import { map, type Observable, pairwise, startWith } from 'rxjs'
import type { StepText } from '../contracts/agent.js'

/**
 * What the page's live feed says about the text being streamed (R85): step `step` of turn `turn`
 * now reads its text up to `at`, then `text`. A new step, or a page that joins mid-step, gets
 * `at: 0` and the whole text so far; after that each piece is one delta, so a long answer is
 * sent once, not once per word.
 */
export type LiveTextPiece = {
  readonly turn: number
  readonly step: number
  readonly at: number
  readonly text: string
}

/**
 * The piece that takes a page holding `before` to `after`. Within a step `text$` only grows (each
 * emission is the text before and one delta), so the lengths say where the new text starts: no
 * comparison of the whole text per delta.
 */
const pieceOf = (before: StepText | undefined, after: StepText): LiveTextPiece => {
  const { turn, step, text } = after
  const same = before !== undefined && before.turn === turn && before.step === step
  return same && text.length >= before.text.length
    ? { turn, step, at: before.text.length, text: text.slice(before.text.length) }
    : { turn, step, at: 0, text }
}

/** `agent.text$` as pieces for one page (each subscription starts afresh, at `at: 0`). */
export const liveTextPieces = (text$: Observable<StepText>): Observable<LiveTextPiece> =>
  text$.pipe(
    startWith(undefined),
    pairwise(),
    map(([before, after]) => pieceOf(before, after!)),
  )
