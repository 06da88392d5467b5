/**
 * R49 after the run: a guarded steer (`steer(x, {turn: n})`) only ever lands in the activity it
 * was staged in, which is turn n (its admission counts); when that activity ends first — turn n's
 * `turn/end`, or the admission that would have opened turn n was rejected and another claim or
 * `idle` followed — it was discarded `expired` by then. A guard that passed at a top-level call
 * never expires at once (nothing can change the window in between).
 */
import type { AgentEvent } from '../../src/index.js'
import { claimPhases } from './claimPhases.js'
import type { Log } from './log.js'

export const checkGuards = (log: Log): string[] => {
  const problems: string[] = []
  const phases = claimPhases(log)
  /** Claim dequeues (a queued item's dequeue that is not a promote's), by timeline position. */
  const claims = new Map<number, string>()
  const placed = new Map<string, 'queued' | 'steering'>()
  log.timeline.forEach((x, at) => {
    if (!('live' in x)) return
    const e = x.live
    if (e.type === 'agent/inbox/enqueue') placed.set(e.message.id, e.placement)
    if (e.type !== 'agent/inbox/dequeue' || placed.get(e.message.id) !== 'queued') return
    const next = log.timeline[at + 1]
    const promote =
      next &&
      'live' in next &&
      next.live.type === 'agent/inbox/enqueue' &&
      next.live.message.id === e.message.id
    if (!promote) claims.set(at, e.message.id)
  })
  /** Where the activity in progress at `from` (a guarded steer's staging) has surely ended, if before `to`. */
  const endOf = (from: number, to: number): string | undefined => {
    // Staged while its claim was still opening: that claim's own dequeue is still to come.
    let allowed = phases[from]?.kind === 'opening' ? 1 : 0
    for (let at = from + 1; at < to; at++) {
      const x = log.timeline[at]
      if (!x) break
      if ('durable' in x) {
        if (x.durable.type === 'turn/end') return `turn/end(${x.durable.data.turn})`
        continue
      }
      if (x.live.type === 'agent/status' && x.live.status === 'idle') return 'idle'
      if (claims.has(at) && allowed-- <= 0) return `the claim of another prompt`
    }
    return undefined
  }
  log.timeline.forEach((x, at) => {
    if (!('live' in x) || x.live.type !== 'agent/inbox/enqueue' || x.live.placement !== 'steering') return
    const { id } = x.live.message
    const sent = log.sent.get(id)
    const guard = sent?.options.turn
    if (
      guard === undefined ||
      log.live.filter((e) => e.type === 'agent/inbox/enqueue' && e.message.id === id).length > 1
    )
      return
    const name = `guarded steer("${sent?.text}", {turn: ${guard}}) from ${sent?.origin}`
    const fate = log.timeline.findIndex(
      (y, i) =>
        i > at &&
        (('durable' in y && y.durable.type === 'steering/message' && y.durable.data.id === id) ||
          ('live' in y && removes(y.live, id))),
    )
    const end = log.timeline[fate]
    if (!end) return
    if ('durable' in end && end.durable.type === 'steering/message' && end.durable.data.turn !== guard)
      problems.push(`R49: ${name} landed in turn ${end.durable.data.turn}`)
    const expired = 'live' in end && end.live.type === 'agent/inbox/discard' && end.live.reason === 'expired'
    const ended = endOf(at, fate)
    if (ended && !expired) problems.push(`R49: ${name} outlived its activity (${ended}) without expiring`)
    const call = log.attempts.find((a) => 'id' in a.result && a.result.id === id)
    if (expired && fate === at + 1 && sent?.origin === 'step' && fate < (call?.end ?? 0))
      problems.push(`R49: ${name} passed its guard at a top-level call and expired at once`)
    if (expired && fate !== at + 1 && !ended) {
      const before = log.timeline[fate - 1]
      const afterTurnEnd =
        before &&
        'durable' in before &&
        before.durable.type === 'turn/end' &&
        before.durable.data.turn === guard
      const started = log.timeline
        .slice(at, fate)
        .some((y) => 'durable' in y && y.durable.type === 'turn/start')
      if (!afterTurnEnd && started) problems.push(`R49: ${name} expired while its turn was still open`)
    }
  })
  return problems
}

const removes = (e: AgentEvent, id: string): boolean =>
  e.type === 'agent/inbox/discard' && e.messages.some((m) => m.id === id)
