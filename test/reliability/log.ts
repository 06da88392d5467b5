/** What a reliability run records besides the agent's own streams: calls, hook runs, problems. */
import type { AgentEvent, SessionEvent } from '../../src/index.js'
import type { Admission, HookPlan, SendKind } from './schedule.js'

export type Origin = 'step' | 'reaction' | 'abort'

/** One accepted send. */
export type Sent = {
  readonly id: string
  readonly kind: SendKind
  readonly text: string
  readonly origin: Origin
  /** `acceptsNextStep` when the call was made (decides routing for top-level calls, R4). */
  readonly windowAtCall: boolean
  /** Durable events before the call (a top-level inject outside the window appends at once). */
  readonly durableBefore: number
  /** For a reaction: the event kind it reacted to, and that event's timeline position. */
  readonly on?: string
  readonly trigger?: number
}

export type Entry =
  | { readonly frame: number; readonly live: AgentEvent }
  | { readonly frame: number; readonly durable: SessionEvent }

export type Log = {
  readonly sent: Map<string, Sent>
  /** The greatest id returned so far (ids are monotonic ULIDs). */
  maxId: string
  /** Per dequeued id: `maxId` when its dequeue was delivered (what was accepted before the claim). */
  readonly dequeueWatermark: Map<string, string>
  readonly problems: string[]
  /** Hanging hooks, tools and model streams still subscribed. */
  hangs: number
  /** `promptSubmit` runs, in order. */
  readonly prompts: {
    readonly text: string
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
  /** The `cancel-requested` event of each effective top-level cancel, and its keepInbox. */
  readonly topCancels: Map<AgentEvent, boolean>
  /** Timeline positions of `cancel(…, {keepInbox: true})` calls, from anywhere. */
  readonly keepInboxAt: number[]
  readonly promises: { readonly what: string; settled: 'pending' | 'resolved' | 'rejected' }[]
  readonly timeline: Entry[]
  readonly live: AgentEvent[]
  readonly durable: SessionEvent[]
  /** Errors of `inboxConservation()` / `statusAlternation()` (R30, R31) or of the streams. */
  readonly streamErrors: unknown[]
  completed: { events: boolean; transcript: boolean }
}

export const newLog = (): Log => ({
  sent: new Map(),
  maxId: '',
  dequeueWatermark: new Map(),
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
  promises: [],
  timeline: [],
  live: [],
  durable: [],
  streamErrors: [],
  completed: { events: false, transcript: false },
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
