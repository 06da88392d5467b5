/** What a reliability run records besides the agent's own streams: calls, hook runs, problems. */
import type { AgentEvent, AgentStatus, InboxSnapshot, Outcome, SessionEvent } from '../../src/index.js'
import { type HistoryLog, newHistoryLog } from './history/log.js'
import type { Admission, ControlKind, HookPlan, SendKind } from './schedule.js'

/** A step whose model request streams (`step/start` written, no `finish` yet): a cut would end it. */
export type StreamingStep = { readonly turn: number; readonly step: number }

export type Origin = 'step' | 'reaction' | 'abort'

/** The options a send was made with (R47, R49); `turn` is the absolute turn asked for. */
export type SendOptionsUsed = {
  readonly ifBusy?: 'reject' | 'interrupt'
  readonly turn?: number
  /** R68: an interrupting steer, made through `steer()` or `send()`. */
  readonly interrupt?: 'steer' | 'send'
}

/** One accepted send. */
export type Sent = {
  readonly id: string
  readonly kind: SendKind
  readonly text: string
  readonly options: SendOptionsUsed
  readonly origin: Origin
  /** `acceptsNextStep` when the call was made (decides routing for top-level calls, R4). */
  readonly windowAtCall: boolean
  /** Durable events before the call (a top-level inject outside the window appends at once). */
  readonly durableBefore: number
  /** For a reaction: the event kind it reacted to, and that event's timeline position. */
  readonly on?: string
  readonly trigger?: number
}

/**
 * One send call, accepted or refused, with what the agent showed at the call: what R47–R49
 * decide from (checkRefusals.ts judges the result once the whole run is known).
 */
export type SendAttempt = {
  readonly kind: SendKind
  readonly text: string
  readonly options: SendOptionsUsed
  readonly origin: Origin
  /** Timeline length at the call: the event being delivered (if any) is `position - 1`. */
  readonly position: number
  readonly frame: number
  /** Made by a top-level call or a subscriber inside it (nothing scheduled runs meanwhile). */
  readonly topLevel: boolean
  readonly window: boolean
  /** The turn whose window is open (an admission counts), `null` while it is closed. */
  readonly windowTurn: number | null
  /** A compaction runs (R74): the window is open for no turn, and the agent is not busy (R47). */
  readonly compacting: boolean
  /** The last turn the transcript opened (0 before the first). */
  readonly lastTurn: number
  readonly status: AgentStatus
  /** `agent.inbox` at the call: queue length, its waking items, staged steering. */
  readonly queue: number
  readonly waking: number
  readonly steering: number
  /** Counted sends (followup, parked, steer) accepted earlier and not processed yet. */
  readonly pending: number
  readonly pendingWaking: number
  /** A wake was surely (or possibly) scheduled in this frame and has not run (R6, R47). */
  readonly wakeCertain: boolean
  readonly wakeMaybe: boolean
  /** Whether `dispose()` was called before: at top level (processed at once) or by a subscriber. */
  readonly disposeCalled: 'none' | 'top' | 'reaction'
  /** An interrupting steer (R68): the step whose model request streamed at the call (`null`: none). */
  readonly streaming?: StreamingStep | null
  readonly result: { readonly id: string } | { readonly error: unknown }
  /** Timeline length when the call returned (a top-level call's own events come before). */
  readonly end: number
  /** For a refused call: nothing was published and `agent.inbox` is the same object. */
  readonly traceless: boolean
}

/** One inbox control call (R43–R46) and what the agent showed just before it. */
export type ControlCall = {
  readonly kind: ControlKind
  readonly id: string
  /** `replace`: the new text (absent for invalid input). */
  readonly text?: string
  readonly index?: number
  readonly origin: Origin
  readonly position: number
  readonly topLevel: boolean
  /** The window is open for an admission or a turn (R46): not a compaction's (R74). */
  readonly window: boolean
  readonly status: AgentStatus
  /** `dispose()` was called before; the agent had finished (its streams completed). */
  readonly disposeCalled: boolean
  readonly finished: boolean
  /** `agent.inbox` before the call, and the timeline length after it (top-level calls). */
  readonly before: InboxSnapshot
  end: number
  readonly error?: unknown
}

/**
 * One `cancelToolCall` call (R71), with what it returned (or threw) and, for a top-level call,
 * whether the run expected it to cancel (`expected`, see checkToolCalls.ts).
 */
export type CancelCall = {
  readonly callId: string
  readonly reason?: string
  readonly origin: Origin
  readonly position: number
  readonly end: number
  readonly topLevel: boolean
  readonly disposeCalled: boolean
  readonly finished: boolean
  /** `agent.inbox` did not change (the same object) across the call. */
  readonly sameInbox: boolean
  readonly expected: boolean
  readonly result: { readonly cancelled: boolean } | { readonly error: unknown }
}

export type Entry =
  | { readonly frame: number; readonly live: AgentEvent }
  | { readonly frame: number; readonly durable: SessionEvent }

export type Log = {
  readonly sent: Map<string, Sent>
  /** Every send call, accepted or refused, in call order. */
  readonly attempts: SendAttempt[]
  readonly controls: ControlCall[]
  readonly cancelCalls: CancelCall[]
  /** Replies (1-based request numbers) whose model stream has emitted its `finish`. */
  readonly finishedReplies: Set<number>
  /** Accepted counted sends whose `enqueue` has not been published yet (they wait in the trampoline). */
  readonly unprocessed: Set<string>
  /** Ids an `enqueue` named so far. */
  readonly enqueued: Set<string>
  /** Frames in which a wake was surely / possibly scheduled (R6); a wake runs in its own frame. */
  readonly wake: { certain: number; maybe: number }
  /** Inside a top-level call (its subscribers included): no scheduled work runs meanwhile. */
  topLevel: boolean
  /** `dispose()` calls: timeline position and whether at top level. */
  readonly disposeCalls: { readonly position: number; readonly topLevel: boolean }[]
  /** `agent.outcome(id)` asked right after each accepted send (R42). */
  readonly outcomes: Map<string, { settled?: Outcome; rejected?: unknown }>
  /** The greatest id returned so far (ids are monotonic ULIDs). */
  maxId: string
  /** Per claimed id: `maxId` when its claim began (what was accepted before the claim). */
  readonly dequeueWatermark: Map<string, string>
  /** Per claimed id: the timeline position where its claim began (its `running`, else its dequeue). */
  readonly claimStart: Map<string, number>
  readonly problems: string[]
  /** Hanging hooks, tools and model streams still subscribed. */
  hangs: number
  /** `promptSubmit` runs, in order. */
  readonly prompts: {
    readonly text: string
    /** Timeline length when the hook ran. */
    readonly position: number
    readonly plan: Admission
    readonly contexts: readonly string[]
  }[]
  readonly stepHooks: { readonly turn: number; readonly step: number; readonly plan: HookPlan }[]
  readonly requestErrors: { readonly turn: number; readonly step: number; retried: boolean }[]
  /** Texts staged by tools with `ctx.context` (R22). */
  readonly toolContexts: string[]
  /** Successful `retry()` calls from `requestError` (bounded, so a run always ends). */
  retries: number
  abortSends: number
  /** Values the `weird` tool returned so far (it cycles through hostile results). */
  weirdResults: number
  /** Timeline positions of events on which a reaction called `retry()` (it may open a turn). */
  readonly retryTriggers: Set<number>
  /** Timeline positions of events on which a reaction called `compact()` (it may open the window at once, R74). */
  readonly compactTriggers: Set<number>
  /** The `cancel-requested` event of each effective top-level cancel, and its keepInbox. */
  readonly topCancels: Map<AgentEvent, boolean>
  /** Timeline positions of `cancel(…, {keepInbox: true})` and interrupting sends, from anywhere. */
  readonly keepInboxAt: number[]
  readonly promises: { readonly what: string; settled: 'pending' | 'resolved' | 'rejected' }[]
  readonly timeline: Entry[]
  readonly live: AgentEvent[]
  readonly durable: SessionEvent[]
  /** Errors of `inboxConservation()` / `statusAlternation()` (R30, R31) or of the streams. */
  readonly streamErrors: unknown[]
  completed: { events: boolean; transcript: boolean }
  /** Summariser, `compact()` and `rollback()` calls (history schedules, R74–R77). */
  readonly history: HistoryLog
}

export const newLog = (): Log => ({
  sent: new Map(),
  attempts: [],
  controls: [],
  cancelCalls: [],
  finishedReplies: new Set(),
  unprocessed: new Set(),
  enqueued: new Set(),
  wake: { certain: -1, maybe: -1 },
  topLevel: false,
  disposeCalls: [],
  outcomes: new Map(),
  maxId: '',
  dequeueWatermark: new Map(),
  claimStart: new Map(),
  problems: [],
  hangs: 0,
  prompts: [],
  stepHooks: [],
  requestErrors: [],
  toolContexts: [],
  retries: 0,
  abortSends: 0,
  weirdResults: 0,
  keepInboxAt: [],
  topCancels: new Map(),
  retryTriggers: new Set(),
  compactTriggers: new Set(),
  promises: [],
  timeline: [],
  live: [],
  durable: [],
  streamErrors: [],
  completed: { events: false, transcript: false },
  history: newHistoryLog(),
})

/** Records how `promise` settles, as `what`. */
export const watch = (log: Log, what: string, promise: Promise<unknown>): void => {
  const entry: Log['promises'][number] = { what, settled: 'pending' }
  log.promises.push(entry)
  promise.then(
    () => {
      entry.settled = 'resolved'
    },
    () => {
      entry.settled = 'rejected'
    },
  )
}

export const describeError = (error: unknown): string => {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  } catch {
    return 'an unreadable value'
  }
}
