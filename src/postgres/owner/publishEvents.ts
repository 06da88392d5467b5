import { randomBytes } from 'node:crypto'
import { Subscription } from 'rxjs'
import type { Agent } from '../../contracts/agent.js'
import { liveChannel } from '../channels.js'
import type { DatabaseOptions } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { checkSessionId } from '../db/sessionId.js'
import { DEFAULT_TIMEOUT_MS, withConnection } from '../db/timeouts.js'
import { encodeLiveEvent } from '../rows/encodeLiveEvent.js'
import { liveBatches, liveBatchRoom } from '../rows/liveBatches.js'

export type PublishEventsOptions = DatabaseOptions & {
  /** How long events gather before the first notification of a batch; default 15 ms. */
  readonly batchMs?: number
  /** Called when a batch could not be published (it is dropped; followers see a gap). */
  readonly onError?: (error: unknown) => void
}

/** Above this many bytes waiting, the owner drops what waits rather than grow (a slow database). */
const MAX_WAITING_BYTES = 1_000_000

/**
 * Publishes `agent.events$` for followers of session `sessionId` in other processes (R56:
 * `connectSessions(pool).session(id).events$`), as NOTIFY on the session's own channel.
 *
 * 1. Events gather for `batchMs`, then go out as few notifications as fit (a JSON array each,
 *    under PostgreSQL's payload limit), in order, on a connection of the pool checked out for
 *    the moment: never the lease's, so a checkpoint never waits behind live events.
 * 2. One flush at a time: events that come while one is under way form the next batch.
 * 3. It never blocks or fails the agent. A delta too large for one notification is split; any
 *    other event too large is replaced by a `remote/events-lost` marker; a batch the database
 *    refuses is dropped (followers see the gap in the batch numbers); past 1 MB waiting, what
 *    waits is dropped and replaced by a marker with its count.
 * 4. Live only: nothing is stored. The transcript is the durable record.
 *
 * `createWorker` publishes the sessions it drives. Unsubscribe to stop; what waits is still sent.
 */
export const publishEvents = (
  agent: Agent,
  pool: PostgresPool,
  sessionId: string,
  options: PublishEventsOptions = {},
): Subscription => {
  checkSessionId(sessionId, 'publishEvents()')
  const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const batchMs = options.batchMs ?? 15
  const channel = liveChannel(sessionId)
  const publisher = randomBytes(8).toString('hex')
  const room = liveBatchRoom(sessionId, publisher)
  let batch = 0
  let waiting: string[] = []
  let waitingBytes = 0
  let flushing = false
  let timer: ReturnType<typeof setTimeout> | undefined

  /** Outside code: whatever it throws must not reject a chain nobody holds, nor reach the agent. */
  const report = (error: unknown): void => {
    try {
      options.onError?.(error)
    } catch {
      // Nothing else to tell.
    }
  }
  const flush = (): void => {
    timer = undefined
    if (flushing || waiting.length === 0) return
    flushing = true
    const texts = waiting
    waiting = []
    waitingBytes = 0
    const notes = liveBatches(sessionId, publisher, batch, texts, room)
    batch += notes.length
    withConnection(pool, ms, async (query) => {
      for (const note of notes) await query('SELECT pg_notify($1, $2)', [channel, note])
    })
      .catch(report)
      .finally(() => {
        flushing = false
        if (waiting.length > 0) flush()
      })
  }
  const add = (texts: readonly string[]) => {
    for (const text of texts) {
      waiting.push(text)
      waitingBytes += text.length
    }
    if (waitingBytes > MAX_WAITING_BYTES) {
      const count = waiting.length
      waiting = [JSON.stringify({ type: 'remote/events-lost', reason: 'unsent', count })]
      waitingBytes = waiting[0]!.length
    }
    if (!flushing && !timer) timer = setTimeout(flush, batchMs)
  }

  const subscription = new Subscription()
  subscription.add(
    agent.events$.subscribe({
      next: (event) => {
        try {
          add(encodeLiveEvent(event, room))
        } catch (error) {
          // Publishing must never fail the agent (its subscribers share its emissions).
          report(error)
        }
      },
      complete: () => flush(),
    }),
  )
  subscription.add(() => {
    if (timer) clearTimeout(timer)
    flush()
  })
  return subscription
}
