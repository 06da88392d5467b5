import type { InboxRecord } from '../../contracts/inbox.js'
import { compactRecords } from '../../session/compactJournal.js'
import { deliveredIds, replayJournal } from '../../session/replayJournal.js'
import type { JournalRow } from '../db/readSession.js'
import type { DecodedSession } from './decodeSession.js'
import { isRemoteRequest } from './pendingRemoteRequests.js'
import { isRemoteEditOp } from './remoteEditRecord.js'

/**
 * How many journal rows a compaction must remove, beyond the rows it writes, to be worth its
 * transaction: a short journal is left as it is (docs/decisions.md).
 */
export const COMPACT_AT = 200

/** A compaction of a session's journal: the rows to delete (by number), the records to write. */
export type JournalCompaction = { readonly remove: number[]; readonly records: InboxRecord[] }

/**
 * The compaction of the journal `rows` that `session` was decoded from, as a file store compacts
 * its inbox journal (`compactRecords`): the owner's records are replaced by the shortest journal
 * that folds to the same inbox (every settlement, one `add` per waiting item), and the remote
 * requests an owner applied are removed (a send whose id the records or the transcript hold, an
 * edit numbered up to `remoteApplied`). The requests that still wait stay as they are, so nothing
 * unsettled is lost. `undefined` when it would remove fewer than `COMPACT_AT` rows more than it writes.
 */
export const compactedJournal = (
  rows: readonly JournalRow[],
  session: DecodedSession,
): JournalCompaction | undefined => {
  const waiting = new Set(session.remote.map((request) => request.seq))
  const remove = rows
    .filter((row) =>
      !isRemoteRequest(row)
        ? true
        : isRemoteEditOp(row.op)
          ? row.seq <= session.remoteApplied
          : !waiting.has(row.seq),
    )
    .map((row) => row.seq)
  const records = compactRecords(replayJournal(session.records, deliveredIds(session.events)))
  return remove.length - records.length >= COMPACT_AT ? { remove, records } : undefined
}
