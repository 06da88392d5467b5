/**
 * The schedule of one reliability run, as plain data: what the model answers, what the hooks
 * decide, which subscribers call back into the agent, and the timed calls of the script.
 *
 * It is a hand-made arbitrary (a record of arrays) rather than `fc.commands`: the whole run is
 * one deterministic virtual-time replay, so fast-check shrinks every part independently (drop a
 * step, shorten a reply list, lower a delay) and the counterexample prints as one readable
 * script (`Schedule[fc.toStringMethod]`).
 */
import fc from 'fast-check'

export type SendKind = 'followup' | 'steer' | 'inject' | 'parked'
export type Op =
  | { readonly kind: SendKind }
  | { readonly kind: 'cancel'; readonly cause: 'user' | 'parent'; readonly keepInbox: boolean }
  | { readonly kind: 'retry' | 'dispose' | 'whenIdle' }
/** A top-level call at virtual frame `t`. */
export type Step = { readonly t: number; readonly op: Op }

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
export type RequestErrorPlan = { readonly retry: boolean; readonly d: number }

export const REACTION_EVENTS = [
  'running',
  'idle',
  'enqueue',
  'dequeue',
  'discard',
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
] as const
export type ReactionOn = (typeof REACTION_EVENTS)[number]
export type ReactionOp = SendKind | 'cancel' | 'cancelKeep' | 'retry' | 'dispose'
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
}

const PREFIX: Record<SendKind, string> = { followup: 'f', steer: 's', inject: 'i', parked: 'p' }

/** A plan with its steps in time order and the text each send carries. */
export class Schedule {
  readonly steps: readonly (Step & { readonly text: string })[]
  constructor(readonly plan: Plan) {
    const sorted = [...plan.steps].sort((a, b) => a.t - b.t)
    this.steps = sorted.map((step, i) => ({
      ...step,
      text: step.op.kind in PREFIX ? `${PREFIX[step.op.kind as SendKind]}${i + 1}` : '',
    }))
  }
  reactionText(index: number, op: ReactionOp): string {
    return op in PREFIX ? `r${index + 1}${PREFIX[op as SendKind]}` : ''
  }
  [fc.toStringMethod](): string {
    return this.toString()
  }
  toString(): string {
    const { plan } = this
    const lines = ['schedule (virtual frames):', '  model replies (in request order; later requests fail):']
    plan.replies.forEach((r, i) => {
      lines.push(`    #${i + 1} ${showReply(r)}`)
    })
    const cyclic = (name: string, list: readonly string[]) =>
      lines.push(`  ${name} (cyclic): ${list.length ? list.join(', ') : '(default)'}`)
    cyclic('promptSubmit', plan.admissions === null ? ['(no hook)'] : plan.admissions.map(showAdmission))
    cyclic('step hook', plan.stepHooks.map(showHook))
    cyclic('turnStopping', plan.turnStopping.map(showHook))
    cyclic(
      'requestError',
      plan.requestErrors.map((r) => `${r.retry ? 'retry' : 'pass'}(d=${r.d})`),
    )
    cyclic('thrown values', plan.thrown)
    plan.reactions.forEach((r, i) => {
      lines.push(`  reaction: on ${ordinal(r.nth)} ${r.on} → ${showCall(r.op, this.reactionText(i, r.op))}`)
    })
    lines.push('  script:')
    for (const s of this.steps) lines.push(`    t=${s.t} ${showOp(s.op, s.text)}`)
    return lines.join('\n')
  }
}

const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`
const showCall = (op: ReactionOp, text: string): string => {
  if (op === 'cancel') return 'cancel(user)'
  if (op === 'cancelKeep') return 'cancel(user, keepInbox)'
  if (op === 'retry' || op === 'dispose') return `${op}()`
  return `${op}("${text}")`
}
const showOp = (op: Op, text: string): string => {
  if (op.kind === 'cancel') return `cancel(${op.cause}${op.keepInbox ? ', keepInbox' : ''})`
  if (op.kind === 'retry' || op.kind === 'dispose' || op.kind === 'whenIdle') return `${op.kind}()`
  return `${op.kind}("${text}")`
}
const showReply = (r: Reply): string => {
  switch (r.kind) {
    case 'stream': {
      const calls = r.calls.map((c) => `${c.tool}(d=${c.d})`).join(', ')
      return `stream ${r.words} word(s)${calls ? `, calls [${calls}]` : ''}, finish ${r.finish}, gaps [${r.gaps}]${r.trailing ? ', trailing delta' : ''}`
    }
    case 'fail':
      return `error after ${r.after} delta(s), gap ${r.gap}`
    case 'malformed':
      return `malformed event (${r.event}), gap ${r.gap}`
    case 'hang':
      return `hang (on abort: ${r.onAbort})`
  }
}
const showAdmission = (a: Admission): string => {
  switch (a.kind) {
    case 'allow':
      return `allow(d=${a.d}${a.rewrite ? ', rewrite' : ''}${a.contexts ? `, +${a.contexts} contexts` : ''})`
    case 'block':
    case 'error':
      return `${a.kind}(d=${a.d})`
    case 'hang':
      return `hang(on abort: ${a.onAbort})`
    default:
      return a.kind
  }
}
const showHook = (h: HookPlan): string => (h.kind === 'ok' ? `ok(d=${h.d})` : h.kind)
