import { catchError, defer, from, map, type Observable, of, reduce } from 'rxjs'
import type { Summarizer } from '../contracts/compaction.js'
import { InvalidInputError } from '../contracts/errors.js'
import type { ContentBlock, Message, Usage } from '../contracts/messages.js'
import type { ModelAdapter } from '../contracts/model.js'
import type { Signal } from '../machine/inputs.js'
import type { Transcript } from '../session/transcript.js'
import { modelSummary, type SummaryPiece } from './modelSummary.js'
import type { Summarizers } from './summarizers.js'

export type SummaryDeps = {
  readonly agentId: string
  readonly model: ModelAdapter
  readonly transcript: Transcript
  readonly summarizers: Summarizers
}

export type SummaryCall = {
  readonly activity: number
  readonly ref: number
  readonly keepLastTurns: number
  readonly turn: number
  readonly signal: AbortSignal
}

type Collected = { readonly text: string[]; usage?: Usage }

/**
 * Runs the `summarize` effect (R74, R75): takes the messages before the kept tail as the session
 * has them now (only what was delivered), asks the summariser, and answers `compaction/done` with
 * the event to append, or `compaction/failed` with whatever was thrown, whatever its type.
 */
export const summarizeHistory = (deps: SummaryDeps, call: SummaryCall): Observable<Signal> =>
  defer(() => {
    const summarize = deps.summarizers.take(call.ref)
    const plan = deps.transcript.compactionPlan(call.keepLastTurns)
    if (plan === undefined) return of<Signal>({ type: 'compaction/done', activity: call.activity })
    const pieces = summarize
      ? givenSummary(summarize, plan.messages, call.signal)
      : modelSummary(deps.model, { agentId: deps.agentId, turn: call.turn }, plan.messages, call.signal)
    return pieces.pipe(
      reduce<SummaryPiece, Collected>(collect, { text: [] }),
      map((collected): Signal => {
        const summary = summaryOf(collected)
        const compaction = { upToSeq: plan.upToSeq, keptFromSeq: plan.keptFromSeq, summary }
        return {
          type: 'compaction/done',
          activity: call.activity,
          compaction: collected.usage ? { ...compaction, usage: collected.usage } : compaction,
        }
      }),
    )
  }).pipe(
    catchError((error: unknown) => of<Signal>({ type: 'compaction/failed', activity: call.activity, error })),
  )

const collect = (acc: Collected, piece: SummaryPiece): Collected => {
  if ('text' in piece) acc.text.push(piece.text)
  else acc.usage = piece.usage
  return acc
}

/** The summary as one text block: pieces streamed in order make one text. */
const summaryOf = (collected: Collected): ContentBlock[] => {
  const text = collected.text.join('')
  if (text.trim() === '')
    throw new InvalidInputError('summarize()', [
      { path: ['summary'], message: 'the summariser gave no text: return the summary as a non-empty string' },
    ])
  return [{ type: 'text', text }]
}

/** A summariser the app gave: each value a string or text blocks; anything else fails it. */
const givenSummary = (
  summarize: Summarizer,
  messages: readonly Message[],
  signal: AbortSignal,
): Observable<SummaryPiece> =>
  from(summarize(messages, { signal })).pipe(map((value: unknown): SummaryPiece => ({ text: textOf(value) })))

const textOf = (value: unknown): string => {
  if (typeof value === 'string') return value
  if (!Array.isArray(value))
    throw badSummary(['summary'], `expected a string or text blocks, got ${typeOf(value)}`)
  let text = ''
  for (const [i, block] of value.entries()) {
    if (
      typeof block !== 'object' ||
      block === null ||
      block.type !== 'text' ||
      typeof block.text !== 'string'
    )
      throw badSummary(['summary', i], 'expected a text block {type: "text", text}: a summary is text only')
    text += block.text
  }
  return text
}

const typeOf = (value: unknown): string => (value === null ? 'null' : typeof value)

const badSummary = (path: (string | number)[], message: string): InvalidInputError =>
  new InvalidInputError('summarize()', [{ path, message }])
