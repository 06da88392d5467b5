/**
 * Inbox accounting after a disposed run: R30 as amended (the operator from creation, nothing
 * outstanding after `dispose()`, every enqueue matched by exactly one later dequeue or discard of
 * its id, an id enqueued again only through a promote or an interrupted admission's return), V8
 * (every id in the transcript at most once), R3–R5 routing, and V1 for tool-produced context.
 * The order of claims, drains and discards is the fold's (fold.ts).
 */
import { type AgentEvent, outstandingInbox } from '../../src/index.js'
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
  const name = (id: string) => `"${log.sent.get(id)?.text ?? '?'}" (${id})`
  /** Timeline position of each live event, and where each id's message entered the transcript. */
  const liveAt: number[] = []
  const carriedAt = new Map<string, number>()
  log.timeline.forEach((x, at) => {
    if ('live' in x) liveAt.push(at)
    else if (
      (x.durable.type === 'user/message' || x.durable.type === 'steering/message') &&
      x.durable.data.id
    )
      carriedAt.set(x.durable.data.id, at)
  })

  /** Per id: its inbox events (index in `log.live`), in order. */
  const history = new Map<string, { at: number; e: AgentEvent }[]>()
  log.live.forEach((e, at) => {
    const idsOf =
      e.type === 'agent/inbox/enqueue' || e.type === 'agent/inbox/dequeue'
        ? [e.message.id]
        : e.type === 'agent/inbox/discard'
          ? e.messages.map((m) => m.id)
          : []
    for (const id of idsOf) history.set(id, [...(history.get(id) ?? []), { at, e }])
  })
  for (const [id, list] of history) {
    if (!log.sent.has(id)) p(`R3: inbox events of ${id}, which no send returned`)
    // R30: enqueue, then exactly one dequeue or discard, and again only after a dequeue.
    list.forEach(({ at, e }, k) => {
      const enqueue = e.type === 'agent/inbox/enqueue'
      if (enqueue !== (k % 2 === 0))
        p(`R30: ${name(id)}: ${e.type} at live #${at} breaks enqueue/remove pairs`)
      if (!enqueue || k === 0) return
      const before = list[k - 1]
      if (before?.e.type !== 'agent/inbox/dequeue') {
        p(`R30: ${name(id)} enqueued again after its discard`)
        return
      }
      if (e.placement === 'steering') {
        if (before.at !== at - 1)
          p(`R30/R46: ${name(id)} enqueued as steering again, not right after its dequeue`)
        return
      }
      // An interrupted admission's prompt comes back (R47): an interrupting send came since its
      // claim, and the prompt never reached the transcript.
      const interrupted = log.live
        .slice(before.at, at)
        .some(
          (x) =>
            x.type === 'agent/inbox/enqueue' && log.sent.get(x.message.id)?.options.ifBusy === 'interrupt',
        )
      const admitted =
        (carriedAt.get(id) ?? -1) > (liveAt[before.at] ?? 0) && (carriedAt.get(id) ?? -1) < (liveAt[at] ?? 0)
      if (!interrupted || admitted)
        p(`R30/R47: ${name(id)} enqueued again as queued without an interrupted admission`)
    })
    if (list.length % 2 !== 0) p(`R30/V8: ${name(id)} is still outstanding after dispose()`)
  }

  const users = new Map<string, number>()
  const steering = new Map<string, number>()
  const toolTexts = new Map<string, number>()
  const outside = new Set<string>()
  let inTurn = false
  for (const e of log.durable) {
    if (e.type === 'turn/start' || e.type === 'turn/end') inTurn = e.type === 'turn/start'
    if (e.type === 'user/message') {
      if (e.data.id !== undefined) {
        count(users, e.data.id)
        if (!inTurn) outside.add(e.data.id)
        if (!log.sent.has(e.data.id)) p(`V8: user/message seq ${e.seq} has id ${e.data.id}, not from a send`)
      }
      const first = e.data.content[0]
      if (e.data.source.kind === 'tool' && first?.type === 'text') count(toolTexts, first.text)
    } else if (e.type === 'steering/message') count(steering, e.data.id)
  }

  for (const [id, s] of log.sent) {
    const tag = `${s.kind}("${s.text}") from ${s.origin} (${id})`
    const u = users.get(id) ?? 0
    const st = steering.get(id) ?? 0
    if (u + st > 1) p(`V8: ${tag} is in the transcript ${u + st} times`)
    const list = history.get(id) ?? []
    // R19, R6: subscribers of turn/end, settled and idle see the window closed (unless a
    // subscriber of the same event called retry() first, which opens a retry turn at once, or
    // compact(), whose compaction opens the window at once while idle, R74).
    const closed =
      (s.on === 'turn/end' || s.on === 'settled' || s.on === 'idle') &&
      !log.retryTriggers.has(s.trigger ?? -1) &&
      !log.compactTriggers.has(s.trigger ?? -1)
    if (s.kind === 'inject') {
      const removed = log.controls.some((c) => c.kind === 'remove' && c.id === id && c.error === undefined)
      if (closed && !outside.has(id)) p(`R19/R4: ${tag} (on ${s.on}) was not appended outside a turn`)
      if (list.length > 0) p(`R3: ${tag} has an agent/inbox event`)
      if (u !== 1 && !(u === 0 && removed)) p(`V1/V8: ${tag} is on ${u} user/message events (expected 1)`)
      if (st) p(`R4: ${tag} became steering`)
      if (s.origin === 'step' && !s.windowAtCall) {
        const next = log.durable[s.durableBefore]
        if (next?.type !== 'user/message' || next.data.id !== id)
          p(`R4: ${tag} outside the window was not appended at once`)
      }
      continue
    }
    const first = list[0]?.e
    if (first?.type !== 'agent/inbox/enqueue') {
      p(`R3/V8: ${tag} was never enqueued`)
      continue
    }
    const where = first.placement
    const last = [...list].reverse().find((x) => x.e.type === 'agent/inbox/enqueue')?.e
    const finalPlacement = last?.type === 'agent/inbox/enqueue' ? last.placement : where
    if ((s.kind === 'followup' || s.kind === 'parked') && where !== 'queued') p(`R5: ${tag} placed ${where}`)
    if (s.kind === 'steer' && closed && where !== 'queued') p(`R19/R4: ${tag} (on ${s.on}) placed ${where}`)
    if (s.kind === 'steer' && s.origin === 'step' && where !== (s.windowAtCall ? 'steering' : 'queued'))
      p(`R4: ${tag} placed ${where} though the window was ${s.windowAtCall ? 'open' : 'closed'} at the call`)
    if (s.options.turn !== undefined && where !== 'steering') p(`R49: guarded ${tag} placed ${where}`)
    // R27: what subscribers of `cancel-requested` send is cleared too (without keepInbox).
    const cause = s.trigger === undefined ? undefined : log.timeline[s.trigger]
    if (s.on === 'cancel-requested' && cause && 'live' in cause && log.topCancels.get(cause.live) === false)
      if (list.at(-1)?.e.type !== 'agent/inbox/discard')
        p(`R27: ${tag}, sent on cancel-requested, was not cleared`)
    if (finalPlacement === 'steering' && u) p(`R5: steering ${tag} appended as user/message`)
    if (finalPlacement === 'queued' && st) p(`R5: queued ${tag} became steering/message`)
    const dequeued = list.some((x) => x.e.type === 'agent/inbox/dequeue')
    if (u + st > 0 && !dequeued) p(`V8: ${tag} is in the transcript but was never dequeued`)
  }
  for (const text of log.toolContexts) {
    const n = toolTexts.get(text) ?? 0
    if (n !== 1) p(`V1: tool context "${text}" appended ${n} times (expected 1)`)
  }
  return problems
}
