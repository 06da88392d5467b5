/**
 * Inbox accounting after a disposed run: R30 conservation (operator and `outstandingInbox`), V8
 * (every id settles exactly once or is in the transcript), FIFO order of claims, drains and
 * discards, R3–R5 routing of top-level calls, and V1 for injected and tool-produced context.
 */
import { type AgentMessage, outstandingInbox } from '../../src/index.js'
import { describeError, type Log } from './log.js'

const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)

export const checkInbox = (log: Log): string[] => {
  const problems: string[] = []
  const p = (s: string) => problems.push(s)
  for (const e of log.streamErrors) p(`stream error: ${describeError(e)}`)
  try {
    const left = outstandingInbox(log.live)
    if (left.size > 0) p(`R30: outstanding after dispose(): ${[...left.values()].flatMap((s) => [...s])}`)
  } catch (error) {
    p(describeError(error))
  }

  const placement = new Map<string, 'queued' | 'steering'>()
  const enqueued = new Map<string, number>()
  const dequeued = new Map<string, number>()
  const discarded = new Map<string, number>()
  // FIFO order (R10, R12, R20, R25): outstanding items in acceptance order, by placement.
  const open = { queued: [] as string[], steering: [] as string[] }
  const name = (id: string) => `"${log.sent.get(id)?.text ?? '?'}" (${id})`
  for (const e of log.live) {
    if (e.type === 'agent/inbox/enqueue') {
      const { id } = e.message
      if (!log.sent.has(id)) p(`R3: enqueue of ${id}, which no send returned`)
      count(enqueued, id)
      placement.set(id, e.placement)
      open[e.placement].push(id)
    } else if (e.type === 'agent/inbox/dequeue') {
      const { id } = e.message
      count(dequeued, id)
      const list = open[placement.get(id) ?? 'queued']
      if (list[0] !== id) p(`R10/R20: dequeue of ${name(id)} while ${list[0] && name(list[0])} is older`)
      const at = list.indexOf(id)
      if (at >= 0) list.splice(at, 1)
    } else if (e.type === 'agent/inbox/discard') {
      const ids = e.messages.map((m: AgentMessage) => m.id as string)
      for (const id of ids) count(discarded, id)
      const expected = [...open.queued, ...open.steering]
      if (ids.join() !== expected.join())
        p(`R25: discard [${ids.map(name)}] is not everything pending in order [${expected.map(name)}]`)
      open.queued = open.queued.filter((id) => !ids.includes(id))
      open.steering = open.steering.filter((id) => !ids.includes(id))
    }
  }

  const asUser = new Map<string, number>()
  const asSteering = new Map<string, number>()
  const toolTexts = new Map<string, number>()
  /** Ids on user/message events outside any turn. */
  const outside = new Set<string>()
  let inTurn = false
  for (const e of log.durable) {
    if (e.type === 'turn/start' || e.type === 'turn/end') inTurn = e.type === 'turn/start'
    if (e.type === 'user/message') {
      if (e.data.id !== undefined && !inTurn) outside.add(e.data.id)
      if (e.data.id !== undefined) {
        count(asUser, e.data.id)
        if (!log.sent.has(e.data.id)) p(`V8: user/message seq ${e.seq} has id ${e.data.id}, not from a send`)
      }
      const first = e.data.content[0]
      if (e.data.source.kind === 'tool' && first?.type === 'text') count(toolTexts, first.text)
    } else if (e.type === 'steering/message') count(asSteering, e.data.id)
  }

  for (const [id, s] of log.sent) {
    const tag = `${s.kind}("${s.text}") from ${s.origin} (${id})`
    const d = dequeued.get(id) ?? 0
    const users = asUser.get(id) ?? 0
    const steering = asSteering.get(id) ?? 0
    // R19, R6: subscribers of turn/end, settled and idle see the window closed (unless a
    // subscriber of the same event called retry() first, which opens a retry turn at once).
    const closed =
      (s.on === 'turn/end' || s.on === 'settled' || s.on === 'idle') &&
      !log.retryTriggers.has(s.trigger ?? -1)
    if (s.kind === 'inject') {
      if (closed && !outside.has(id)) p(`R19/R4: ${tag} (on ${s.on}) was not appended outside a turn`)
      if (enqueued.has(id) || d || discarded.has(id)) p(`R3: ${tag} has an agent/inbox event`)
      if (users !== 1) p(`V1/V8: ${tag} is on ${users} user/message events (expected exactly 1)`)
      if (steering) p(`R4: ${tag} became steering`)
      if (s.origin === 'step' && !s.windowAtCall) {
        const next = log.durable[s.durableBefore]
        if (next?.type !== 'user/message' || next.data.id !== id)
          p(`R4: ${tag} outside the window was not appended at once`)
      }
      continue
    }
    const n = enqueued.get(id) ?? 0
    if (n !== 1) p(`R3/V8: ${tag} enqueued ${n} times (expected 1)`)
    const removed = d + (discarded.get(id) ?? 0)
    if (removed !== 1) p(`V8/R30: ${tag} dequeued ${d} + discarded ${removed - d} times (expected 1 in all)`)
    const where = placement.get(id)
    if (where === undefined) continue
    if ((s.kind === 'followup' || s.kind === 'parked') && where !== 'queued') p(`R5: ${tag} placed ${where}`)
    if (s.kind === 'steer' && closed && where !== 'queued') p(`R19/R4: ${tag} (on ${s.on}) placed ${where}`)
    if (s.kind === 'steer' && s.origin === 'step' && where !== (s.windowAtCall ? 'steering' : 'queued'))
      p(`R4: ${tag} placed ${where} though the window was ${s.windowAtCall ? 'open' : 'closed'} at the call`)
    // R27: what subscribers of `cancel-requested` send is cleared too (without keepInbox).
    const cause = s.trigger === undefined ? undefined : log.timeline[s.trigger]
    if (s.on === 'cancel-requested' && cause && 'live' in cause && log.topCancels.get(cause.live) === false)
      if (d !== 0 || !discarded.has(id)) p(`R27: ${tag}, sent on cancel-requested, was not cleared`)
    if (where === 'steering') {
      if (users) p(`R5: steering ${tag} appended as user/message`)
      if (steering !== d) p(`V8: steering ${tag} dequeued ${d} times, on ${steering} steering/message events`)
    } else {
      if (steering) p(`R5: queued ${tag} became steering/message`)
      if (users > d) p(`R7/V8: queued ${tag} on ${users} user/message events but dequeued ${d} times`)
    }
  }
  for (const text of log.toolContexts) {
    const n = toolTexts.get(text) ?? 0
    if (n !== 1) p(`V1: tool context "${text}" appended ${n} times (expected 1)`)
  }
  return problems
}
