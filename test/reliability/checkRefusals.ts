/**
 * R47–R49 at call time: every send's result is judged against what the agent showed when it was
 * made (log.attempts). The checks run in the agent's order: after `dispose()` resolved
 * `AgentDisposedError` (V2); a turn guard that does not name the turn whose window is open
 * `TurnMismatchError` (R49); `ifBusy: 'reject'` while busy `AgentBusyError` (R47); a counted send
 * when the waiting items reach `maxQueued` `InboxFullError` (R48). A refusal leaves no trace.
 *
 * Busy is exact from what the agent shows (window open, a waking item queued) and what the run
 * knows (its own sends still in the trampoline, a wake scheduled this frame); a wake that may or
 * may not have run yet leaves the result open. Waiting items are the queue minus the head a claim
 * is dequeuing, plus staged steering, plus counted sends not yet processed.
 */
import { AgentBusyError, AgentDisposedError, InboxFullError, TurnMismatchError } from '../../src/index.js'
import { claimPhases } from './claimPhases.js'
import { compacting } from './history/phases.js'
import { describeError, type Log, type SendAttempt } from './log.js'

type Result = 'accepted' | 'TurnMismatchError' | 'AgentBusyError' | 'InboxFullError' | 'AgentDisposedError'

const resultOf = (a: SendAttempt): Result | string => {
  if ('id' in a.result) return 'accepted'
  const e = a.result.error
  if (e instanceof TurnMismatchError) return 'TurnMismatchError'
  if (e instanceof AgentBusyError) return 'AgentBusyError'
  if (e instanceof InboxFullError) return 'InboxFullError'
  if (e instanceof AgentDisposedError) return 'AgentDisposedError'
  return describeError(e)
}

export const checkRefusals = (log: Log, maxQueued: number | null): string[] => {
  const problems: string[] = []
  const phases = claimPhases(log)
  for (const made of log.attempts) {
    // A compaction seen only afterwards (a subscriber of its `running`): its window is for no turn.
    const a =
      made.window && !made.compacting && compacting(log, made.position)
        ? { ...made, compacting: true, windowTurn: null }
        : made
    const options = [
      ...(a.options.ifBusy ? [`ifBusy: ${a.options.ifBusy}`] : []),
      ...(a.options.turn !== undefined ? [`turn: ${a.options.turn}`] : []),
    ]
    const tag = `${a.kind}("${a.text}"${options.length ? `, {${options}}` : ''}) from ${a.origin} at t=${a.frame}`
    const p = (s: string) => problems.push(`${tag}: ${s}`)
    const got = resultOf(a)
    if (got !== 'accepted' && !a.traceless) p(`${got} left a trace (an event, or a changed inbox)`)
    if (got === 'AgentDisposedError') {
      // Judged where the call is made (V2): only once dispose() has resolved.
      if (a.disposeCalled === 'none') p('AgentDisposedError before any dispose()')
      continue
    }
    const possible = expected(a, maxQueued, phases[a.position - 1])
    if (!possible.results.includes(got as Result))
      p(`${got}, expected ${possible.results.join(' or ')} (${possible.why})`)
    if ('error' in a.result) {
      const e = a.result.error
      if (e instanceof TurnMismatchError && (e.expected !== a.options.turn || e.current !== a.windowTurn))
        p(`TurnMismatchError names expected ${e.expected}, current ${e.current} (window: ${a.windowTurn})`)
      if (e instanceof InboxFullError && e.limit !== maxQueued) p(`InboxFullError names limit ${e.limit}`)
    }
  }
  return problems
}

const expected = (
  a: SendAttempt,
  maxQueued: number | null,
  phase: ReturnType<typeof claimPhases>[number] | undefined,
): { results: Result[]; why: string } => {
  const why: string[] = [`window ${a.window ? `open for turn ${a.windowTurn}` : 'closed'}`]
  // R49: a guard names the turn whose window is open, or the send is refused.
  if (a.options.turn !== undefined && a.options.turn !== a.windowTurn)
    return { results: ['TurnMismatchError'], why: why.join(', ') }
  const results: Result[] = []
  // R47: 'reject' applies where the send would be queued (a next-step send with the window open
  // is steering, unaffected).
  const queued = a.kind === 'followup' || a.kind === 'parked' || (a.kind === 'steer' && !a.window)
  if (a.options.ifBusy === 'reject' && queued) {
    // A compaction is neither an admission nor a turn: its open window does not make the agent busy.
    const active = a.window && !a.compacting
    const busy = active || a.waking > 0 || a.pendingWaking > 0 || (a.topLevel && a.wakeCertain)
    const free = !active && a.waking === 0 && a.pendingWaking === 0 && !a.wakeCertain && !a.wakeMaybe
    why.push(
      `${a.waking} waking queued, ${a.pendingWaking} waking sends pending, wake ${a.wakeCertain ? 'scheduled' : a.wakeMaybe ? 'maybe scheduled' : 'not scheduled'}`,
    )
    if (busy && a.disposeCalled === 'none') return { results: ['AgentBusyError'], why: why.join(', ') }
    if (!free || a.disposeCalled !== 'none') results.push('AgentBusyError')
  }
  // R48: injections are never counted; sends while dispose() unwinds are not refused by it.
  if (maxQueued === null || a.kind === 'inject' || a.disposeCalled === 'top')
    return { results: [...results, 'accepted'], why: why.join(', ') }
  const claiming =
    !a.window || phase === undefined || phase.kind === 'none'
      ? [0]
      : phase.kind === 'opening'
        ? [1]
        : phase.headWaits
          ? [0, 1]
          : [0]
  const counts = claiming.map((c) => a.queue - c + a.steering + a.pending)
  why.push(
    `waiting ${counts.join(' or ')} of ${maxQueued} (queue ${a.queue}, claimed head ${claiming.join('/')}, steering ${a.steering}, pending ${a.pending})`,
  )
  const full = counts.map((n) => n >= maxQueued)
  if (full.includes(true) || a.disposeCalled !== 'none') results.push('InboxFullError')
  if (full.includes(false) || a.disposeCalled !== 'none') results.push('accepted')
  return { results, why: why.join(', ') }
}
