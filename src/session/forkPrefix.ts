import { InvalidInputError } from '../contracts/errors.js'
import type { SessionEvent } from '../contracts/events.js'
import { MessageProjection } from './messageProjection.js'

/** What a fork copies: the source's first events, and the turn whose end they reach. */
export type ForkPrefix = { readonly events: readonly SessionEvent[]; readonly atTurn: number }

/**
 * The events `forkSession` copies from a source log (R78), or an `InvalidInputError` that changes
 * nothing.
 *
 * With `atTurn`, the copy ends at that turn's `turn/end`: a turn that never ended (or a number the
 * log does not have) cannot be forked at. Events written after that `turn/end` and before the next
 * turn (a compaction, a rollback) are not copied: they happened after the moment forked at. A turn
 * the source later rolled back can still be named: the copy ends before that rollback, so the
 * fork holds the messages as they were when the turn ended. A rollback or a compaction inside the
 * copy is copied as it is, and the fork's messages replay it.
 *
 * Without `atTurn`, every event is copied, and `atTurn` is the last turn that
 * `session.messages()` holds at the end of them (0 when none): after a trailing rollback, the
 * turn it went back to.
 */
export const forkPrefix = (events: readonly SessionEvent[], atTurn: number | undefined): ForkPrefix => {
  if (atTurn === undefined) {
    const projection = new MessageProjection()
    for (const event of events) projection.see(event)
    return { events, atTurn: projection.timelineTurns.at(-1) ?? 0 }
  }
  const end = events.findIndex((e) => e.type === 'turn/end' && e.data.turn === atTurn)
  if (end < 0)
    throw new InvalidInputError('forkSession()', [
      {
        path: ['options', 'atTurn'],
        message: `the source has no turn ${atTurn} that ended; ${endedTurns(events)}`,
      },
    ])
  return { events: events.slice(0, end + 1), atTurn }
}

/** "its turns are 1–3" (or the ones there are, when some are missing): what the message offers. */
const endedTurns = (events: readonly SessionEvent[]): string => {
  const turns: number[] = []
  for (const e of events) if (e.type === 'turn/end') turns.push(e.data.turn)
  if (turns.length === 0) return 'it has no finished turn: fork it without atTurn to copy all of it'
  const first = turns[0] as number
  const last = turns.at(-1) as number
  const contiguous = last - first + 1 === turns.length
  const listed =
    contiguous && turns.length > 2
      ? `${first}–${last}`
      : turns.length <= 10
        ? turns.join(', ')
        : `${turns.slice(0, 5).join(', ')} … ${turns.slice(-3).join(', ')}`
  return `name one of its finished turns: ${listed}`
}
