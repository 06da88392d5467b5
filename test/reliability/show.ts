/** A reliability schedule printed as a readable script (what fast-check shows for a counterexample). */
import type { Admission, HookPlan, Op, Reply, Schedule, SummaryPlan } from './schedule.js'

export const showSchedule = (schedule: Schedule): string => {
  const { plan } = schedule
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
  if (plan.maxQueued !== null) lines.push(`  createAgent({maxQueued: ${plan.maxQueued}})`)
  if (plan.summaries) cyclic('summariser', plan.summaries.map(showSummary))
  if (plan.autoCompaction)
    lines.push(
      `  createAgent({compaction: {whenInputTokensExceed: ${plan.autoCompaction.whenInputTokensExceed}${plan.autoCompaction.keepLastTurns === undefined ? '' : `, keepLastTurns: ${plan.autoCompaction.keepLastTurns}`}}}) (request k reports inputTokens 10k)`,
    )
  plan.reactions.forEach((r, i) => {
    lines.push(`  reaction: on ${ordinal(r.nth)} ${r.on} → ${showOp(r.op, schedule.reactionText(i, r.op))}`)
  })
  lines.push('  script:')
  for (const s of schedule.steps) lines.push(`    t=${s.t} ${showOp(s.op, s.text)}`)
  return lines.join('\n')
}

const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`

export const showOp = (op: Op, text: string): string => {
  switch (op.kind) {
    case 'cancel':
      return `cancel(${op.cause}${op.keepInbox ? ', keepInbox' : ''})`
    case 'retry':
    case 'dispose':
    case 'whenIdle':
      return `${op.kind}()`
    case 'remove':
    case 'promote':
      return `${op.kind}(id #-${op.pick})`
    case 'move':
      return `move(id #-${op.pick}, ${op.index ?? 0})`
    case 'compact': {
      const options = [
        ...(op.keepLastTurns === undefined ? [] : [`keepLastTurns: ${op.keepLastTurns}`]),
        ...(op.own ? ['summarize'] : []),
      ]
      return `compact(${options.length ? `{${options.join(', ')}}` : ''})`
    }
    case 'rollback':
      return `rollback(${op.turns})`
    case 'raiseBudget':
      return `raiseBudget(+${op.by})`
    case 'cancelCall':
      return `cancelToolCall(${op.among === 'unknown' ? 'unknown id' : `${op.among} call #-${op.pick}`}${op.reason ? ', {reason}' : ''})`
    case 'replace':
      return `replace(id #-${op.pick}, ${op.bad ? 'invalid input' : `"${text}"`})`
    default: {
      const options = [
        ...(op.ifBusy ? [`ifBusy: '${op.ifBusy}'`] : []),
        ...(op.turn ? [`turn: ${op.turn}`] : []),
        ...(op.interrupt ? ['interrupt: true'] : []),
      ]
      if (op.interrupt === 'send')
        return `send("${text}", {target: 'next-step', wakeup: true, interrupt: true})`
      return `${op.kind}("${text}"${options.length ? `, {${options.join(', ')}}` : ''})`
    }
  }
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
const showSummary = (s: SummaryPlan): string => {
  switch (s.kind) {
    case 'ok':
      return `${s.as}(d=${s.d})`
    case 'throw':
    case 'hang':
      return s.kind
    default:
      return `${s.kind}(d=${s.d})`
  }
}
