import { defer, filter, map, type Observable, startWith } from 'rxjs'
import type { SessionEvent, SessionUsage } from '../contracts/events.js'
import type { Transcript } from '../session/transcript.js'
import { usageOf } from '../session/usageLedger.js'

/**
 * `agent.usage$` (R73): the total now on subscribe, then the new total after each event that
 * changes it (a step's start counts a request; a message or a step's end adds its tokens).
 * It completes when the transcript stream does (the agent is disposed).
 */
export const usageStream = (
  transcript: Transcript,
  durable$: Observable<SessionEvent>,
): Observable<SessionUsage> =>
  defer(() =>
    durable$.pipe(
      filter((event) => event.type === 'step/start' || usageOf(event) !== undefined),
      map(() => transcript.usage),
      startWith(transcript.usage),
    ),
  )
