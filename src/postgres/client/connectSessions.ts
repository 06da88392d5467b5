import { firstValueFrom, type Observable } from 'rxjs'
import type { SessionEvent } from '../../contracts/events.js'
import type { Outcome } from '../../contracts/inbox.js'
import type {
  AgentMessageId,
  PresetOptions,
  SendInput,
  SendOptions,
  SteerOptions,
} from '../../contracts/messages.js'
import { PRESETS } from '../../messages/acceptSend.js'
import { checkInput, type FieldRules } from '../../messages/checkInput.js'
import { optional, timerMs } from '../../messages/fieldRules.js'
import { SessionStoreError } from '../../session/storeErrors.js'
import { checkOptionsOf, poolRule } from '../db/checkOptions.js'
import { type DatabaseOptions, databaseError, sessionLabel } from '../db/databaseErrors.js'
import { notificationHub } from '../db/notificationHub.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { checkMessageId, checkSessionId } from '../db/sessionId.js'
import { DEFAULT_TIMEOUT_MS } from '../db/timeouts.js'
import type { RemoteAgentEvent } from '../rows/liveEvents.js'
import { acceptRemoteSend, type RemoteSendRecord } from '../rows/remoteSendRecord.js'
import { followEvents } from './followEvents.js'
import { followTranscript } from './followTranscript.js'
import { type RemoteApprovals, remoteDecisionCalls } from './remoteDecisionCalls.js'
import { type Chain, type RemoteInboxControls, remoteEditCalls } from './remoteEditCalls.js'
import { type RemoteHistory, remoteHistory } from './remoteHistory.js'
import { remoteOutcome } from './remoteOutcome.js'
import { type RemoteToolCalls, remoteToolCalls } from './remoteToolCalls.js'
import { writeRemoteSend } from './writeRemoteRequest.js'

export type ConnectSessionsOptions = DatabaseOptions & {
  /** How often a follower reads when no notification came (the LISTEN fallback); default 1000 ms. */
  readonly pollMs?: number
}

/**
 * A session seen from a process that does not drive it (R55, R56). Each send validates and
 * snapshots its input like a local one and mints the id at once (bad input throws
 * `InvalidInputError` synchronously, and nothing is stored); the Promise resolves with the id
 * once the send is durable in the session's inbox journal, or rejects with `SessionStoreError`.
 * Sends from one client to one session are stored in the order they were made.
 */
export type RemoteSession = RemoteInboxControls &
  RemoteApprovals &
  RemoteToolCalls &
  RemoteHistory & {
    readonly sessionId: string
    send(input: SendInput, options: SendOptions): Promise<AgentMessageId>
    followup(input: SendInput, options?: PresetOptions): Promise<AgentMessageId>
    steer(input: SendInput, options?: SteerOptions): Promise<AgentMessageId>
    inject(input: SendInput, options?: PresetOptions): Promise<AgentMessageId>
    /**
     * What became of a message sent into this session (R55), once the event or settlement that
     * decides it is durable. It waits while the message waits; it rejects with `SessionStoreError`
     * when the database fails, and with `InvalidInputError` for an id the session's journal and
     * transcript do not hold (R42), read at the call and again `timeoutMs` later.
     */
    outcome(id: AgentMessageId): Promise<Outcome>
    /** The committed events from seq 1, then each new one as it commits (R56). */
    readonly transcript$: Observable<SessionEvent>
    /**
     * The owner's live events while it runs (R56; published by `publishEvents`, which workers
     * start): enqueue, dequeue, status, settled, stream deltas … from the moment of subscribing,
     * no replay (`transcript$` is the durable record). A `remote/events-lost` marker stands where
     * events were lost on the way. Never errors.
     */
    readonly events$: Observable<RemoteAgentEvent>
  }

export type SessionsClient = {
  session(sessionId: string): RemoteSession
  /** Stops following (closes the LISTEN connection); the pool stays the caller's. */
  close(): Promise<void>
}

const CLIENT_OPTIONS: FieldRules = {
  timeoutMs: optional(timerMs(1, 'such as 10000')),
  pollMs: optional(timerMs(1, 'such as 1000')),
}

/**
 * Sessions on PostgreSQL, from any process (R55, R56): `connectSessions(pool).session(id)`. A pool
 * that is not one, or bad options, throw `InvalidInputError` before anything starts.
 */
export const connectSessions = (pool: PostgresPool, options: ConnectSessionsOptions = {}): SessionsClient => {
  checkInput('connectSessions()', (check) => {
    check.field(pool, ['pool'], poolRule)
    checkOptionsOf(check, options, CLIENT_OPTIONS)
  })
  const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const pollMs = options.pollMs ?? 1_000
  const hub = notificationHub(pool, ms)
  /** Per session, the last send or edit of this client: the next one is stored after it. */
  const lastRequest = new Map<string, Promise<unknown>>()
  let closed = false

  const chain: Chain = (sessionId, what, task) => {
    if (closed) {
      const label = sessionLabel(sessionId)
      return Promise.reject(
        new SessionStoreError(label, `${label}: this client is closed; connect again to send`),
      )
    }
    const stored = (lastRequest.get(sessionId) ?? Promise.resolve()).then(task).catch((error: unknown) => {
      throw databaseError(sessionId, what, error)
    })
    const settled = stored.catch(() => {})
    lastRequest.set(sessionId, settled)
    void settled.then(() => {
      if (lastRequest.get(sessionId) === settled) lastRequest.delete(sessionId)
    })
    return stored
  }
  const store = (sessionId: string, record: RemoteSendRecord): Promise<AgentMessageId> => {
    // A retry stores the same id, which the journal keeps once: safe after an unclear commit.
    const write = () => writeRemoteSend(pool, sessionId, record, ms)
    return chain(sessionId, `store the send ${record.message.id}`, () => write().catch(write))
  }

  return {
    session: (sessionId) => {
      checkSessionId(sessionId, 'session()')
      const preset = (name: keyof typeof PRESETS, call: string) => (input: SendInput, given?: unknown) =>
        store(sessionId, acceptRemoteSend(input, given, PRESETS[name], call))
      return {
        sessionId,
        send: (input, given) => store(sessionId, acceptRemoteSend(input, given, undefined, 'send()')),
        followup: preset('followup', 'followup()'),
        steer: preset('steer', 'steer()'),
        inject: preset('inject', 'inject()'),
        outcome: (id) => {
          checkMessageId(id, 'outcome()')
          // This client's sends to the session are stored first: an id it returned is known.
          const stored = lastRequest.get(sessionId) ?? Promise.resolve()
          return firstValueFrom(remoteOutcome(pool, hub, sessionId, id, ms, pollMs, stored))
        },
        transcript$: followTranscript(pool, hub, sessionId, ms, pollMs),
        events$: followEvents(hub, sessionId),
        ...remoteEditCalls(pool, sessionId, chain, ms),
        ...remoteDecisionCalls({ pool, hub, sessionId, ms, pollMs }, chain),
        ...remoteToolCalls({ pool, hub, sessionId, ms, pollMs }, chain),
        ...remoteHistory({ pool, hub, sessionId, ms, pollMs }, chain),
      }
    },
    close: async () => {
      closed = true
      await hub.close()
    },
  }
}
