import { lastValueFrom, reduce, takeWhile } from 'rxjs'
import { InvalidInputError } from '../../contracts/errors.js'
import type { SessionEvent } from '../../contracts/events.js'
import type { Message } from '../../contracts/messages.js'
import { MessageProjection, projectMessages } from '../../session/messageProjection.js'
import { databaseError } from '../db/databaseErrors.js'
import { withConnection } from '../db/timeouts.js'
import { checkRollbackCount, remoteRollback } from '../rows/remoteEditRecord.js'
import { type Reads, requestApplied } from './decisionApplied.js'
import { followTranscriptReads } from './followTranscript.js'
import type { Chain } from './remoteEditCalls.js'
import { writeRemoteEdit } from './writeRemoteRequest.js'

/** The conversation of a session seen from another process, and its undo (R38, R77). */
export type RemoteHistory = {
  /**
   * `session.messages()` of the committed log (R38): what the model is sent next, compactions
   * and rollbacks applied (R74, R77). One read of the whole log; `transcript$` with
   * `surfaceMessages()` follows it live.
   */
  messages(): Promise<readonly Message[]>
  /**
   * Undoes the last `turns` turns as `agent.rollback` does (R77), applied by the owner at its
   * next idle moment: at once when it is idle, otherwise once the running turn and the prompts
   * stored before this request have run (they count among the turns); the requests stored after
   * it wait for it. Resolves once the `rollback` event is committed. A `turns` that is not a
   * whole number from 1 throws `InvalidInputError` at once; more turns than the committed log
   * holds rejects with it; nothing is stored for either. More turns than the messages hold when
   * the owner applies it (another rollback came first) rejects with it too, and no event is
   * written. With no owner, the request is waiting work: a worker takes the session because of
   * it; with no worker either, the Promise waits for the next owner.
   */
  rollback(turns: number): Promise<void>
}

export const remoteHistory = (reads: Reads, chain: Chain): RemoteHistory => ({
  messages: () => committedMessages(reads),
  rollback: (turns) => {
    const { pool, sessionId, ms } = reads
    const record = remoteRollback(turns)
    const what = `the rollback of ${record.turns} turn${record.turns === 1 ? '' : 's'}`
    // A retry stores the same request, which the journal keeps once: safe after an unclear commit.
    const write = () => writeRemoteEdit(pool, sessionId, record, ms)
    return chain(sessionId, `store ${what}`, async () => {
      const timeline = await committedTimeline(reads)
      try {
        checkRollbackCount(record.turns, timeline)
      } catch (error) {
        return { refused: error }
      }
      return { seq: await write().catch(write) }
    }).then(async (stored) => {
      if ('refused' in stored) throw stored.refused
      // Waited for outside the chain, as a decision is: it must not hold back later sends.
      if (await lastValueFrom(requestApplied(reads, stored.seq, record.request, what))) return
      throw new InvalidInputError('rollback()', [
        { path: ['turns'], message: `${await refusal(reads, record.request)} when the owner applied it` },
      ])
    })
  },
})

/** The turns `session.messages()` holds in the committed log: what a rollback counts. */
const committedTimeline = async ({ pool, sessionId, ms }: Reads): Promise<readonly number[]> => {
  const { rows } = await withConnection(pool, ms, (query) =>
    query(
      `SELECT event FROM steerable_events WHERE session_id = $1
       AND event->>'type' IN ('turn/end', 'rollback') ORDER BY seq`,
      [sessionId],
    ),
  )
  // Turn ends and rollbacks alone decide the timeline: the projection keeps no messages here.
  const projection = new MessageProjection()
  for (const row of rows) projection.see(row.event as SessionEvent)
  return projection.timelineTurns
}

/** Why the owner refused the request: the issue its `InvalidInputError` named. */
const refusal = async ({ pool, sessionId, ms }: Reads, request: string): Promise<string> => {
  const { rows } = await withConnection(pool, ms, (query) =>
    query(
      `SELECT record->'outcome'->'error'->>'message' AS message FROM steerable_inbox
       WHERE session_id = $1 AND op = 'settle' AND record->>'id' = $2`,
      [sessionId, request],
    ),
  ).catch((error: unknown) => {
    throw databaseError(sessionId, 'read why the rollback was refused', error)
  })
  const message = String(rows[0]?.message ?? 'more turns than the messages held')
  // The owner's message is the local call's: `rollback(): turns: only 2 turns can be undone`.
  return message.replace(/^rollback\(\): turns: /, '')
}

const committedMessages = (reads: Reads): Promise<readonly Message[]> =>
  lastValueFrom(
    followTranscriptReads(reads.pool, reads.hub, reads.sessionId, reads.ms, reads.pollMs).pipe(
      takeWhile((read) => read.more, true),
      reduce((events: SessionEvent[], read) => {
        events.push(...read.events)
        return events
      }, []),
    ),
  ).then(projectMessages)
