import type { DurableDraft, SessionEvent } from '../contracts/events.js'
import type { InboxRecord, Outcome } from '../contracts/inbox.js'
import type { AgentMessage, AgentMessageId } from '../contracts/messages.js'
import { fifoFrom } from '../machine/fifo.js'
import type { OutboxEntry } from '../machine/outboxEntry.js'
import type { QueuedItem } from '../machine/queuedItem.js'
import type { DeliveryState } from '../machine/state.js'
import { deliveredIds, replayJournal } from '../session/replayJournal.js'

/** What a resumed agent starts with, from its store's inbox journal (R51). */
export type RestoredInbox = {
  /** Queued (waking) and parked items, in FIFO order. */
  readonly queue: readonly QueuedItem[]
  readonly waking: number
  /** Staged steering and context, the inherited prefix of the next admitted prompt (R13c). */
  readonly outbox: readonly OutboxEntry[]
  /** Restored context with no restored steering: appended at once, after the log's end (V1). */
  readonly appended: readonly DurableDraft[]
  /** The journal's settlements, and the restored guarded steering that expired (R42, R49). */
  readonly settled: ReadonlyMap<AgentMessageId, Outcome>
  /** Records to journal now: the expirations, so a second resume agrees. */
  readonly records: readonly InboxRecord[]
}

const NOTHING: RestoredInbox = {
  queue: [],
  waking: 0,
  outbox: [],
  appended: [],
  settled: new Map(),
  records: [],
}

/**
 * Folds the journal (`replayJournal`) against the transcript, whose interrupted turn is closed
 * already (R37), into the inbox a resumed agent starts with. An id the transcript holds was
 * delivered and is not restored. No turn is in the window when an agent is created, so steering
 * guarded for a turn (R49) can never land: it expires, and the expiry is journaled. Unless the
 * session reopens paused (R65): then `openTurn`'s window is open again, its guarded steering
 * still lands, and context stays staged for its next step. Pure.
 */
export const restoreInbox = (
  records: readonly InboxRecord[],
  history: readonly SessionEvent[],
  openTurn?: number,
): RestoredInbox => {
  if (records.length === 0) return NOTHING
  const replay = replayJournal(records, deliveredIds(history))
  const settled = new Map(replay.settled)
  const expired: InboxRecord[] = []
  const outbox: OutboxEntry[] = []
  for (const { message, placement, turn } of replay.outbox) {
    if (placement === 'steering' && turn !== undefined && turn === openTurn) {
      outbox.push({ kind: 'steering', message, guard: turn })
    } else if (placement === 'steering' && turn !== undefined) {
      const outcome: Outcome = { kind: 'discarded', reason: 'expired' }
      settled.set(message.id, outcome)
      expired.push({ op: 'settle', id: message.id, outcome })
    } else if (placement === 'steering') outbox.push({ kind: 'steering', message })
    else outbox.push({ kind: 'context', data: message })
  }
  const steering = openTurn !== undefined || outbox.some((e) => e.kind === 'steering')
  let waking = 0
  const queue = replay.queue.map(({ message, placement, maxSteps }): QueuedItem => {
    if (placement === 'parked') return { parked: message }
    waking++
    return maxSteps === undefined ? message : { limited: message, maxSteps }
  })
  return {
    queue,
    waking,
    outbox: steering ? outbox : [],
    appended: steering ? [] : outbox.map((e) => ({ type: 'user/message', data: contextData(e) })),
    settled,
    records: expired,
  }
}

/** The delivery state's inbox fields for a restored inbox (a wake is due when an item wakes). */
export const restoredState = (restored: RestoredInbox): Partial<DeliveryState> =>
  restored === NOTHING
    ? {}
    : {
        queue: fifoFrom([...restored.queue]),
        waking: restored.waking,
        outbox: restored.outbox,
        wakeScheduled: restored.waking > 0,
      }

const contextData = (entry: OutboxEntry): AgentMessage => (entry as { data: AgentMessage }).data
