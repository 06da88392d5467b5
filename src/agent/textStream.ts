import { Observable } from 'rxjs'
import type { StepText } from '../contracts/agent.js'
import type { StreamDeltaEvent } from '../contracts/events.js'
import type { DeliveryState } from '../machine/state.js'
import type { Driver } from '../runtime/driver.js'

/**
 * `agent.text$` (R82): the text of the step being streamed, accumulated from its `text` deltas.
 * Each emission is the whole text of that step so far; a delta of another step starts again from
 * `''`. A subscriber that joins while a step streams gets that step's text so far at once (the
 * reducer keeps it), then each delta: deltas themselves are live only.
 *
 * Linear in the deltas: nothing is re-joined. While the step's text is one block (no reasoning
 * between its deltas), the text is the reducer's own string, so a long answer is held once, not
 * twice; otherwise a string `+` (a rope in V8, never copied per delta). One small object per delta.
 *
 * ```text
 * deltas:  -a-b----c-|     a = (1.1,'Hel'), b = (1.1,'lo'), c = (1.2,'Bye')
 * text$:   -A-B----C-|     A = 'Hel', B = 'Hello', C = 'Bye'
 * ```
 */
export const textStream = <A>(driver: Driver<A>): Observable<StepText> =>
  new Observable<StepText>((subscriber) => {
    const now = streamingText(driver.state())
    let turn = now?.turn ?? 0
    let step = now?.step ?? 0
    let text = now?.text ?? ''
    if (now !== undefined) subscriber.next(now)
    return driver.events$.subscribe({
      next: (e) => {
        if (e.type !== 'agent/stream/delta' || e.kind !== 'text') return
        if (e.step !== step || e.turn !== turn) {
          turn = e.turn
          step = e.step
          text = ''
        }
        text = textAfter(driver.state(), e, text)
        subscriber.next({ turn, step, text })
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    })
  })

/**
 * The step's text after delta `e`: the reducer's string when its draft ends in a text block that
 * holds all of it (its length says so), else the text before and the delta.
 */
const textAfter = (s: DeliveryState, e: StreamDeltaEvent, before: string): string => {
  const a = s.activity
  if (a?.kind === 'turn' && a.turn === e.turn && a.step === e.step) {
    const last = a.draft.content[a.draft.content.length - 1]
    if (last?.type === 'text' && last.text.length === before.length + e.text.length) return last.text
  }
  return before + e.text
}

/** The text the running step has streamed so far, when a step streams and some text came. */
const streamingText = (s: DeliveryState): StepText | undefined => {
  const a = s.activity
  if (a?.kind !== 'turn' || a.phase !== 'model' || !a.stepOpen) return undefined
  let text = ''
  for (const block of a.draft.content) if (block.type === 'text') text += block.text
  return text === '' ? undefined : { turn: a.turn, step: a.step, text }
}
