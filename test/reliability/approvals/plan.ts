/**
 * One run of the approvals property (V9), as plain data: what the model answers, which tools its
 * calls name, the timed calls of the script (sends with `onApproval`, decisions, promote, cancel,
 * restarts), the subscribers that call back into the agent, and how the run ends. Like the main
 * suite's `Schedule`, a record of arrays, so fast-check shrinks each part and prints a script.
 */
import fc from 'fast-check'

/**
 * `gate`: always needs approval. `maybe`: a predicate of the call's number `n` decides (`n % 3`:
 * 0 needs none, 1 needs it, 2 throws, which counts as needing it). `plain`: never needs it.
 * Each answers `d` frames after it runs (at once for 0). The model's id for the call is its own
 * unless `id` says otherwise: `repeat` reuses the id of the call before it in the reply (as a
 * model may), `empty` is `''` (the AI SDK adapter passes any id through). The tool's own `k`
 * argument stays unique, so the checks tell calls apart by it and by their place (V9).
 */
export type ToolKind = 'gate' | 'maybe' | 'plain'
export type CallPlan = {
  readonly tool: ToolKind
  readonly d: number
  readonly n: number
  readonly id?: 'repeat' | 'empty'
}
/** A model reply `gap` frames after the request: tool calls, or text that ends the turn. */
export type Reply = { readonly gap: number; readonly calls: readonly CallPlan[] }

export type SendOp = {
  readonly kind: 'followup' | 'steer' | 'inject'
  readonly onApproval?: 'hold' | 'deny'
}
/**
 * A decision on the `pick`th pending approval (modulo the list), or, with `stale`, on a call
 * that is not pending (decided, or never asked for): that one must throw and change nothing.
 */
export type DecideOp = {
  readonly kind: 'approve' | 'deny'
  readonly pick: number
  readonly stale?: boolean
  readonly reason?: boolean
}
export type Op =
  | SendOp
  | DecideOp
  /** `promote` of the `pick`th waiting queued item (R46): while paused it becomes held steering. */
  | { readonly kind: 'promote'; readonly pick: number }
  | { readonly kind: 'cancel'; readonly keepInbox: boolean }
  /** `dispose()` and a new agent on the same store; or the process dies (unflushed writes lost). */
  | { readonly kind: 'restart'; readonly crash: boolean }
export type Step = { readonly t: number; readonly op: Op }

export const REACTION_EVENTS = [
  'requested',
  'paused',
  'tool/result',
  'step/end',
  'turn/end',
  'enqueue',
] as const
export type ReactionOn = (typeof REACTION_EVENTS)[number]
/** What a subscriber may call: sends, decisions, cancel (never a restart). */
export type ReactionOp = SendOp | DecideOp | { readonly kind: 'cancel'; readonly keepInbox: boolean }
/** A subscriber of each process that calls `op` while the `nth` event of kind `on` is delivered. */
export type Reaction = { readonly on: ReactionOn; readonly nth: number; readonly op: ReactionOp }

export type Plan = {
  readonly replies: readonly Reply[]
  readonly steps: readonly Step[]
  readonly reactions: readonly Reaction[]
  /** `createAgent({approvalTimeoutMs})` in frames; `null`: no timeout. */
  readonly timeoutMs: number | null
  /** How the run's end decides what is still pending: approve all, deny all, or alternate. */
  readonly finally: 'approve' | 'deny' | 'alternate'
}

export class ApprovalSchedule {
  readonly steps: readonly Step[]
  constructor(readonly plan: Plan) {
    this.steps = [...plan.steps].sort((a, b) => a.t - b.t)
  }
  [fc.toStringMethod](): string {
    return this.toString()
  }
  toString(): string {
    const { plan } = this
    const lines = [
      'approval schedule (virtual frames):',
      '  model replies (in request order; later ones: text):',
    ]
    plan.replies.forEach((r, i) => {
      const calls = r.calls
        .map((c) => `${c.tool}(n=${c.n}, d=${c.d}${c.id ? `, id: ${c.id}` : ''})`)
        .join(' ')
      lines.push(`    #${i + 1} after ${r.gap}: ${calls || 'text'}`)
    })
    if (plan.timeoutMs !== null) lines.push(`  approvalTimeoutMs: ${plan.timeoutMs}`)
    for (const r of plan.reactions) lines.push(`  reaction: on #${r.nth} ${r.on} → ${showOp(r.op)}`)
    lines.push('  script:')
    for (const s of this.steps) lines.push(`    t=${s.t} ${showOp(s.op)}`)
    lines.push(`  finally: ${plan.finally} what is pending`)
    return lines.join('\n')
  }
}

export const showOp = (op: Op): string => {
  switch (op.kind) {
    case 'approve':
    case 'deny': {
      const which = op.stale ? 'a call not pending' : `pending #${op.pick}`
      return `${op.kind}(${which}${op.reason ? ', reason' : ''})`
    }
    case 'promote':
      return `promote(queued #${op.pick})`
    case 'cancel':
      return `cancel(${op.keepInbox ? 'keepInbox' : ''})`
    case 'restart':
      return op.crash ? 'crash and reopen' : 'dispose() and reopen'
    default:
      return `${op.kind}(${op.onApproval ? `onApproval: '${op.onApproval}'` : ''})`
  }
}
