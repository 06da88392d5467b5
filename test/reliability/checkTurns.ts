/**
 * Turn and step structure over the interleaved timeline: seq numbering, turns numbered 1..k and
 * balanced, steps 1..m inside them, only contexts between turns (R7, R15), `settled` once per
 * chain (R23, R24), `agent/error` right before an error `turn/end` (R23), tool call/result
 * adjacency in model order (R21), status alternation and idle only with nothing waking (R9, R31).
 */
import type { SessionEvent } from '../../src/index.js'
import type { Log } from './log.js'

type TurnEnd = Extract<SessionEvent, { type: 'turn/end' }>

export const checkTurns = (log: Log): string[] => {
  const problems: string[] = []
  const p = (s: string) => problems.push(s)
  log.durable.forEach((e, i) => {
    if (e.seq !== i + 1) p(`seq: event ${i + 1} has seq ${e.seq}`)
  })

  let turn: number | undefined
  let step: number | undefined
  let lastTurn = 0
  let lastStep = 0
  let status = 'idle'
  /**
   * R64/R80: the open turn waits on its budget; `dispose()` of such a turn writes nothing for it
   * (its session reopens paused), so it settles and goes idle without a `turn/end`.
   */
  let budgetPaused = false
  const disposed = log.disposeCalls.length > 0
  const suspended = () => budgetPaused && disposed
  const waking = new Set<string>()
  const ends: { at: number; event: TurnEnd }[] = []
  const starts = new Map<number, { at: number; retry: boolean }>()
  const settled = new Map<number, { at: number; kind: string }[]>()
  log.timeline.forEach((entry, at) => {
    if ('live' in entry) {
      const e = entry.live
      if (e.type === 'agent/status') {
        if (e.status === 'idle' && turn !== undefined && !suspended())
          p(`R9: idle published inside turn ${turn}`)
        if (e.status === 'idle' && waking.size > 0) p(`R9: idle published with waking items [${[...waking]}]`)
        status = e.status
      } else if (e.type === 'agent/settled') {
        if (turn !== undefined && !suspended()) p(`settled(${e.turn}) published inside turn ${turn}`)
        settled.set(e.turn, [...(settled.get(e.turn) ?? []), { at, kind: e.reason.kind }])
      } else if (e.type === 'agent/inbox/enqueue') {
        if (e.placement === 'queued' && log.sent.get(e.message.id)?.kind !== 'parked')
          waking.add(e.message.id)
      } else if (e.type === 'agent/inbox/dequeue') waking.delete(e.message.id)
      else if (e.type === 'agent/inbox/discard') for (const m of e.messages) waking.delete(m.id)
      return
    }
    const e = entry.durable
    const where = `seq ${e.seq} ${e.type}`
    // R77: a rollback is written only while idle; a context may be appended while idle (R4).
    if (e.type === 'rollback' ? status !== 'idle' : e.type !== 'user/message' && status !== 'running')
      p(`R9: ${where} while ${status}`)
    switch (e.type) {
      case 'turn/start':
        budgetPaused = false
        if (turn !== undefined) p(`R7: ${where} ${e.data.turn} inside turn ${turn}`)
        if (e.data.turn !== lastTurn + 1) p(`R7: ${where} ${e.data.turn} after turn ${lastTurn}`)
        turn = lastTurn = e.data.turn
        lastStep = 0
        starts.set(turn, { at, retry: e.data.trigger.kind === 'retry' })
        return
      case 'turn/end':
        if (e.data.turn !== turn || step !== undefined) p(`${where} ${e.data.turn} (open: ${turn}.${step})`)
        ends.push({ at, event: e })
        turn = undefined
        return
      case 'step/start':
        budgetPaused = false
        if (e.data.turn !== turn || step !== undefined)
          p(`R15: ${where} ${e.data.turn}.${e.data.step} (open: ${turn}.${step})`)
        if (e.data.step !== lastStep + 1)
          p(`R15: ${where} ${e.data.turn}.${e.data.step} after step ${lastStep}`)
        step = lastStep = e.data.step
        return
      case 'step/end':
        if (e.data.turn !== turn || e.data.step !== step)
          p(`R15: ${where} ${e.data.turn}.${e.data.step} (open: ${turn}.${step})`)
        step = undefined
        return
      case 'user/message':
      case 'compaction':
      case 'rollback':
      case 'fork':
        return
      case 'budget/pause':
        budgetPaused = true
        // R80: at a step boundary of the open turn, after its last step (0: before its first).
        if (e.data.turn !== turn || step !== undefined || e.data.step !== lastStep)
          p(`R80: ${where} ${e.data.turn}.${e.data.step} (open: ${turn}.${step}, last step ${lastStep})`)
        return
      case 'tools/changed':
        // R100: recorded before the request of the step it is for, so between two steps of a turn.
        if (turn === undefined || step !== undefined) p(`R100: ${where} is not between two steps of a turn`)
        return
      case 'steering/message': {
        if (e.data.turn !== turn) p(`R12/R20: ${where} of turn ${e.data.turn} while turn ${turn} is open`)
        const before = log.timeline[at - 1]
        const ok = before && 'live' in before && before.live.type === 'agent/inbox/dequeue'
        if (!ok || before.live.message.id !== e.data.id) p(`R12/R20: ${where} is not right after its dequeue`)
        return
      }
      default:
        if (e.data.turn !== turn || e.data.step !== step)
          p(`R15: ${where} of ${e.data.turn}.${e.data.step} while ${turn}.${step} is open`)
    }
  })
  if (turn !== undefined && !suspended()) p(`turn ${turn} never ended`)
  const statuses = log.live.flatMap((e) => (e.type === 'agent/status' ? [e.status] : []))
  if (statuses.length > 0 && (statuses[0] !== 'running' || statuses.at(-1) !== 'idle'))
    p(`R9/R31: statuses ${statuses} do not start running and end idle`)

  // settled: once per turn/end, except for a failed turn followed at once by its retry turn (R24;
  // `retry()` counts from anywhere while requestError runs: the hook, or a subscriber of an event
  // published meanwhile). A turn whose retry dispose() dropped is the last of its chain and settles.
  for (const { at, event } of ends) {
    const n = event.data.turn
    const reason = event.data.reason
    const list = settled.get(n) ?? []
    const next = starts.get(n + 1)
    if (reason.kind === 'error') {
      const before = log.timeline[at - 1]
      const ok = before && 'live' in before && before.live.type === 'agent/error'
      if (!ok || before.live.turn !== n || before.live.step !== reason.step)
        p(`R23: turn/end(${n}, error at step ${reason.step}) is not right after its agent/error`)
    }
    const idleBetween =
      next !== undefined &&
      log.timeline
        .slice(at, next.at)
        .some((x) => 'live' in x && x.live.type === 'agent/status' && x.live.status === 'idle')
    const retriedAtOnce = reason.kind === 'error' && next?.retry === true && !idleBetween
    // A retry asked for in requestError opens right after the failed turn; only dispose() drops it.
    const disposed = log.promises.some((x) => x.what.startsWith('dispose'))
    if (reason.kind === 'error' && log.requestErrors.some((r) => r.turn === n && r.retried) && !retriedAtOnce)
      if (!disposed) p(`R24: turn ${n} asked for a retry in requestError, but no retry turn followed`)
    if (list.length === 0) {
      if (!retriedAtOnce)
        p(`R24/R23: turn ${n} ended ${reason.kind} and was never settled, but no retry turn followed it`)
      continue
    }
    if (retriedAtOnce) p(`R24: settled(${n}) published though its retry turn followed`)
    if (list.length > 1) p(`settled(${n}) published ${list.length} times`)
    const first = list[0] as { at: number; kind: string }
    if (next !== undefined && next.at < first.at) p(`settled(${n}) after turn/start(${n + 1})`)
    if (next?.retry && first.at > next.at) p(`R24: settled(${n}) after its retry turn`)
    const expected =
      reason.kind === 'completed' || reason.kind === 'max-tokens' || reason.kind === 'budget'
        ? 'completed'
        : reason.kind === 'error'
          ? 'error'
          : 'aborted'
    if (first.kind !== expected) p(`settled(${n}) ${first.kind} for turn/end ${reason.kind}`)
  }
  problems.push(...checkToolPairs(log.durable))
  return problems
}

/** R21, R15: each step's tool calls are recorded in model order, each right before its result. */
const checkToolPairs = (durable: readonly SessionEvent[]): string[] => {
  const problems: string[] = []
  let expected: string[] = []
  durable.forEach((e, i) => {
    if (e.type === 'assistant/message')
      expected = e.data.content.flatMap((b) => (b.type === 'tool-call' ? [b.id] : []))
    else if (e.type === 'step/end' && expected.length > 0) {
      problems.push(`R15/R25: step ${e.data.turn}.${e.data.step} ended without calls [${expected}]`)
      expected = []
    } else if (e.type === 'tool/call') {
      const next = durable[i + 1]
      if (next?.type !== 'tool/result' || next.data.result.toolCallId !== e.data.call.id)
        problems.push(`R21: tool/call ${e.data.call.id} (seq ${e.seq}) is not right before its tool/result`)
      if (expected[0] !== e.data.call.id)
        problems.push(`R15: tool/call ${e.data.call.id} (seq ${e.seq}) out of model order [${expected}]`)
      expected = expected.slice(1)
    } else if (e.type === 'tool/result' && durable[i - 1]?.type !== 'tool/call')
      problems.push(`R21: tool/result seq ${e.seq} without its tool/call`)
  })
  return problems
}
