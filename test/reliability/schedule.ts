/**
 * The schedule of one reliability run, as plain data: what the model answers, what the hooks
 * decide, which subscribers call back into the agent, and the timed calls of the script.
 *
 * It is a hand-made arbitrary (a record of arrays) rather than `fc.commands`: the whole run is
 * one deterministic virtual-time replay, so fast-check shrinks every part independently (drop a
 * step, shorten a reply list, lower a delay) and the counterexample prints as one readable
 * script (`Schedule[fc.toStringMethod]`, see show.ts).
 */
import fc from 'fast-check'
import { showSchedule } from './show.js'

export type SendKind = 'followup' | 'steer' | 'inject' | 'parked'
/**
 * A guarded steer's turn (R49), relative to the turn whose window is open at the call (or the
 * turn the next admission would open, while it is closed): one before, that one, one after.
 */
export type TurnPick = 'past' | 'current' | 'future'
export type SendOp = {
  readonly kind: SendKind
  /** R47; `interrupt` only for waking sends (followup, steer). */
  readonly ifBusy?: 'reject' | 'interrupt'
  /** R49; steers only. */
  readonly turn?: TurnPick
  /**
   * R68; plain steers only: `steer(x, {interrupt: true})` or the same through
   * `send(x, {target: 'next-step', wakeup: true, interrupt: true})`.
   */
  readonly interrupt?: 'steer' | 'send'
}
export type ControlKind = 'remove' | 'replace' | 'move' | 'promote'
/**
 * An inbox control call (R43–R46) on an id returned earlier in the run, waiting or settled:
 * the `pick`th id counted back from the latest one (modulo the ids so far).
 */
export type ControlOp = {
  readonly kind: ControlKind
  readonly pick: number
  /** `move`: the position asked for (clamped by the agent). */
  readonly index?: number
  /** `replace`: with input that fails validation (R2: it throws and changes nothing). */
  readonly bad?: boolean
}
/**
 * R71: `cancelToolCall` on the `pick`th call id (modulo) of `among`: `open`, the calls of the open
 * step's answer without a result (running or waiting for their turn in the batch), or when there
 * are none, like `any`; `any`, every call of the replies requested so far, counted back from the
 * latest (settled ones, ones a cut dropped, ones still streaming); `unknown`, an id no reply has.
 * `reason`: with `{reason}`.
 */
export type CancelCallOp = {
  readonly kind: 'cancelCall'
  readonly among: 'open' | 'any' | 'unknown'
  readonly pick: number
  readonly reason: boolean
}
/**
 * R74: `compact()`; `keepLastTurns` absent: the agent's default. `own`: with the run's summariser
 * as `options.summarize`, else the agent's own (its `compaction.summarize`, set whenever the run
 * compacts by itself, so the model is never asked for a summary and its replies stay the steps').
 */
export type CompactOp = { readonly kind: 'compact'; readonly keepLastTurns?: number; readonly own: boolean }
/** R77: `rollback(turns)`; 0 is input it must refuse (InvalidInputError). */
export type RollbackOp = { readonly kind: 'rollback'; readonly turns: number }
/**
 * R80: `raiseBudget()` to `by` requests (and 10 times as many tokens) above what `agent.usage`
 * shows; `by: 0` is a limit not above the usage, which it must refuse (InvalidInputError).
 */
export type RaiseBudgetOp = { readonly kind: 'raiseBudget'; readonly by: number }
export type Op =
  | SendOp
  | ControlOp
  | CancelCallOp
  | CompactOp
  | RollbackOp
  | RaiseBudgetOp
  | { readonly kind: 'cancel'; readonly cause: 'user' | 'parent'; readonly keepInbox: boolean }
  | { readonly kind: 'retry' | 'dispose' | 'whenIdle' }
/** A top-level call at virtual frame `t`. */
export type Step = { readonly t: number; readonly op: Op }

export const isSend = (op: Op): op is SendOp =>
  op.kind === 'followup' || op.kind === 'steer' || op.kind === 'inject' || op.kind === 'parked'
export const isControl = (op: Op): op is ControlOp =>
  op.kind === 'remove' || op.kind === 'replace' || op.kind === 'move' || op.kind === 'promote'

export type ToolName =
  | 'ok' // answers after d frames (at once for d = 0)
  | 'pok' // the same, parallel-safe
  | 'fail' // throws (d = 0) or errors after d frames
  | 'hang' // never answers, not even on abort
  | 'hangValue' // answers "late" when the turn's signal aborts
  | 'hangErr' // errors when the signal aborts (like fetch)
  | 'hangSend' // never answers; its abort listener sends a followup (R27)
  | 'ctx' // stages tool context at once (R22), answers after d
  | 'conclude' // concludes the turn (R17), answers after d
  | 'nope' // unknown tool (R21b)
  | 'badArgs' // arguments the schema rejects (R21b)
  | 'weird' // returns a hostile value (a revoked Proxy, a throwing getter, a BigInt inside)
export type ToolCallPlan = { readonly tool: ToolName; readonly d: number }

export type Reply =
  | {
      readonly kind: 'stream'
      readonly words: number
      readonly calls: readonly ToolCallPlan[]
      /** `none`: the stream completes without `finish` (a `stop`). */
      readonly finish: 'stop' | 'tool-calls' | 'max-tokens' | 'none'
      /** Frames before each event (cyclic). */
      readonly gaps: readonly number[]
      /** One more text delta after `finish` (ignored by the loop). */
      readonly trailing: boolean
    }
  /** Errors after `after` text deltas (0: before the first event). */
  | { readonly kind: 'fail'; readonly after: number; readonly gap: number }
  | { readonly kind: 'malformed'; readonly gap: number; readonly event: MalformedEvent }
  | { readonly kind: 'hang'; readonly onAbort: 'error' | 'never' }

/** What a malformed model stream emits: an unknown type, or a value that throws when read. */
export type MalformedEvent = 'bogus' | 'revoked' | 'getter'

/**
 * What outside code throws, cyclic over the run's throws (hooks, tools, model streams): an
 * `Error`, or a value that breaks naive error handling (see test/support/hostile.ts).
 */
export type Thrown =
  | 'error'
  | 'nullProto'
  | 'badMessage'
  | 'revoked'
  | 'symbol'
  | 'null'
  | 'numberMessage'
  | 'bigintMessage'

export type Admission =
  | { readonly kind: 'allow'; readonly d: number; readonly rewrite: boolean; readonly contexts: number }
  | { readonly kind: 'block' | 'error'; readonly d: number }
  | { readonly kind: 'throw' | 'invalid' }
  | { readonly kind: 'hang'; readonly onAbort: 'never' | 'error' | 'allow' }
export type HookPlan = { readonly kind: 'ok'; readonly d: number } | { readonly kind: 'throw' | 'hang' }
/**
 * What one summariser call does (R74, R75), cyclic over the run's calls: answers after `d`
 * frames as a string, as text blocks, or as two streamed pieces; throws at the call; errors
 * after `d` frames; answers '' or a block that is not text; or never answers (only a cancel or
 * `dispose()` ends it).
 */
export type SummaryPlan =
  | { readonly kind: 'ok'; readonly d: number; readonly as: 'string' | 'blocks' | 'pieces' }
  | { readonly kind: 'error' | 'empty' | 'nonText'; readonly d: number }
  | { readonly kind: 'throw' | 'hang' }
/** R80: `createAgent({budget})`, with at least one limit. */
export type BudgetPlan = {
  readonly maxRequests?: number
  readonly maxTotalTokens?: number
  readonly onExceed: 'pause' | 'stop'
}
/** R76: `createAgent({compaction: {whenInputTokensExceed, keepLastTurns?, summarize}})`. */
export type AutoCompaction = { readonly whenInputTokensExceed: number; readonly keepLastTurns?: number }
export type RequestErrorPlan = { readonly retry: boolean; readonly d: number }

export const REACTION_EVENTS = [
  'running',
  'idle',
  'enqueue',
  'dequeue',
  'discard',
  'replace',
  'reorder',
  'cancel-requested',
  'settled',
  'error',
  'turn/start',
  'turn/end',
  'step/start',
  'step/end',
  'user/message',
  'steering/message',
  'tool/result',
  'assistant/message',
  // Live: a call is dispatched (R72), a text delta streams (R68: a steer cuts there).
  'tool-start',
  'delta',
] as const
/** Live: a compaction starts or ends (R74, R75); only history schedules react to them. */
export const COMPACTION_EVENTS = ['compaction-start', 'compaction-end'] as const
export type ReactionOn = (typeof REACTION_EVENTS)[number] | (typeof COMPACTION_EVENTS)[number]
/** What a subscriber calls: any call of the script but `whenIdle()`. */
export type ReactionOp = Exclude<Op, { readonly kind: 'whenIdle' }>
/** A subscriber that calls `op` while the `nth` event of kind `on` is being delivered. */
export type Reaction = { readonly on: ReactionOn; readonly nth: number; readonly op: ReactionOp }

export type Plan = {
  readonly steps: readonly Step[]
  /** One reply per model request, in order; requests past the end fail. */
  readonly replies: readonly Reply[]
  /** Cyclic; `null`: no `promptSubmit` hook at all. */
  readonly admissions: readonly Admission[] | null
  readonly stepHooks: readonly HookPlan[]
  readonly turnStopping: readonly HookPlan[]
  readonly requestErrors: readonly RequestErrorPlan[]
  readonly reactions: readonly Reaction[]
  /** Cyclic; empty: every throw is a plain `Error`. */
  readonly thrown: readonly Thrown[]
  /** `createAgent({maxQueued})` (R48); `null`: unbounded. */
  readonly maxQueued: number | null
  /** History schedules only (history/arbitrary.ts): the summariser's calls, cyclic (R74, R75). */
  readonly summaries?: readonly SummaryPlan[]
  /** History schedules only: the agent compacts by itself (R76); its model reports usage. */
  readonly autoCompaction?: AutoCompaction | null
  /**
   * History schedules only: the agent's budget (R80). Its model reports usage only when it
   * compacts by itself, so the budget counts estimated usage otherwise.
   */
  readonly budget?: BudgetPlan | null
}

/** The text a send carries starts with its kind's letter; a replace's new text with `x`. */
const PREFIX: Record<SendKind | 'replace', string> = {
  followup: 'f',
  steer: 's',
  inject: 'i',
  parked: 'p',
  replace: 'x',
}
const prefixOf = (op: Op): string | undefined =>
  isSend(op) ? PREFIX[op.kind] : op.kind === 'replace' ? PREFIX.replace : undefined

/** A plan with its steps in time order and the text each send (or replace) carries. */
export class Schedule {
  readonly steps: readonly (Step & { readonly text: string })[]
  constructor(readonly plan: Plan) {
    const sorted = [...plan.steps].sort((a, b) => a.t - b.t)
    this.steps = sorted.map((step, i) => {
      const prefix = prefixOf(step.op)
      return { ...step, text: prefix === undefined ? '' : `${prefix}${i + 1}` }
    })
  }
  reactionText(index: number, op: Op): string {
    const prefix = prefixOf(op)
    return prefix === undefined ? '' : `r${index + 1}${prefix}`
  }
  [fc.toStringMethod](): string {
    return this.toString()
  }
  toString(): string {
    return showSchedule(this)
  }
}
