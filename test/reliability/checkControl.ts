/**
 * Inbox control (R43–R46). A top-level call is processed before it returns, so what it publishes
 * first is exact, from `agent.inbox` just before it: remove → one `discard:removed` of a waiting
 * queued or steering item (a staged context goes without an event); replace → `replace` with the
 * new text; move → `reorder` with the item at the clamped index, or nothing when it stays;
 * promote → `dequeue` + `enqueue(steering)` while the window is open, else to the queue's head
 * (`reorder` when it moved); an item that does not wait → nothing at all.
 *
 * A subscriber's call is processed later, when the item may or may not wait any more: every
 * `discard:removed`, `replace`, `reorder` and promote must then answer a call made before it.
 * Errors: `InvalidInputError` only for a replace with invalid input (R2), `AgentDisposedError`
 * only once `dispose()` resolved (V2); an error publishes nothing.
 */
import {
  AgentDisposedError,
  type AgentEvent,
  type InboxSnapshot,
  InvalidInputError,
} from '../../src/index.js'
import { type ControlCall, describeError, type Log } from './log.js'

const textOf = (m: { readonly content: readonly { readonly type: string; readonly text?: string }[] }) =>
  m.content[0]?.type === 'text' ? m.content[0].text : '?'

/** What a top-level call on `before` publishes first, as labels; `undefined`: nothing. */
const expectedFirst = (c: ControlCall, before: InboxSnapshot): string[] => {
  const queue = before.queue.map((i) => i.message.id as string)
  const from = queue.indexOf(c.id)
  const staged = before.outbox.find((i) => i.message.id === c.id)
  switch (c.kind) {
    case 'remove':
      return from >= 0 || staged?.placement === 'steering' ? [`discard:removed(${c.id})`] : []
    case 'replace':
      return from >= 0 || staged?.placement === 'steering' ? [`replace(${c.id},${c.text})`] : []
    case 'move': {
      if (from < 0) return []
      const to = Math.max(0, Math.min(c.index ?? 0, queue.length - 1))
      if (to === from) return []
      const rest = queue.filter((id) => id !== c.id)
      rest.splice(to, 0, c.id)
      return [`reorder(${rest})`]
    }
    case 'promote': {
      if (from < 0) return []
      if (c.window) return [`dequeue(${c.id})`, `enqueue(${c.id},steering)`]
      return from === 0 ? [] : [`reorder(${[c.id, ...queue.filter((id) => id !== c.id)]})`]
    }
  }
}

const labelOf = (e: AgentEvent): string | undefined => {
  switch (e.type) {
    case 'agent/inbox/discard':
      return `discard:${e.reason}(${e.messages.map((m) => m.id)})`
    case 'agent/inbox/replace':
      return `replace(${e.message.id},${textOf(e.message)})`
    case 'agent/inbox/reorder':
      return `reorder(${e.ids})`
    case 'agent/inbox/dequeue':
      return `dequeue(${e.message.id})`
    case 'agent/inbox/enqueue':
      return `enqueue(${e.message.id},${e.placement})`
    default:
      return undefined
  }
}

export const checkControl = (log: Log): string[] => {
  const problems: string[] = []
  for (const c of log.controls) {
    const p = (s: string) =>
      problems.push(`${c.kind}("${log.sent.get(c.id)?.text ?? '?'}") from ${c.origin}: ${s}`)
    if (c.error !== undefined) {
      const fine =
        (c.error instanceof AgentDisposedError && c.finished) ||
        (c.error instanceof InvalidInputError && c.kind === 'replace' && c.text === undefined)
      if (!fine) p(`threw ${describeError(c.error)}`)
      if (c.end !== c.position) p('threw and still published events')
      continue
    }
    if (c.kind === 'replace' && c.text === undefined) p('accepted invalid input (R2)')
    if (c.finished) p('accepted after dispose() resolved (V2)')
    if (c.origin !== 'step' || c.disposeCalled) continue
    const expected = expectedFirst(c, c.before)
    const got = log.timeline
      .slice(c.position, c.end)
      .slice(0, Math.max(expected.length, 1))
      .map((x) => ('live' in x ? labelOf(x.live) : undefined) ?? ('live' in x ? x.live.type : x.durable.type))
    const first = expected.length === 0 ? (c.end > c.position ? got : []) : got
    if (first.join(' ') !== expected.join(' '))
      p(`published [${first.join(' ')}] first, expected [${expected.join(' ')}]`)
  }
  problems.push(...answeredCalls(log))
  return problems
}

/** Every control event answers an earlier call (each call at most one answer). */
const answeredCalls = (log: Log): string[] => {
  const problems: string[] = []
  const used = new Set<ControlCall>()
  const answer = (at: number, fits: (c: ControlCall) => boolean, what: string): void => {
    const call = log.controls.find(
      (c) => c.position <= at && !used.has(c) && c.error === undefined && fits(c),
    )
    if (call) used.add(call)
    else problems.push(`R43–R46: ${what} at timeline #${at} answers no earlier call`)
  }
  log.timeline.forEach((x, at) => {
    if (!('live' in x)) return
    const e = x.live
    const next = log.timeline[at + 1]
    if (e.type === 'agent/inbox/discard' && e.reason === 'removed')
      answer(at, (c) => c.kind === 'remove' && e.messages.some((m) => m.id === c.id), labelOf(e) ?? '')
    else if (e.type === 'agent/inbox/replace')
      answer(
        at,
        (c) => c.kind === 'replace' && c.id === e.message.id && c.text === textOf(e.message),
        labelOf(e) ?? '',
      )
    else if (e.type === 'agent/inbox/reorder')
      answer(
        at,
        (c) => (c.kind === 'move' || c.kind === 'promote') && e.ids.includes(c.id as never),
        'reorder',
      )
    else if (
      e.type === 'agent/inbox/dequeue' &&
      next &&
      'live' in next &&
      next.live.type === 'agent/inbox/enqueue' &&
      next.live.placement === 'steering' &&
      next.live.message.id === e.message.id
    )
      answer(at, (c) => c.kind === 'promote' && c.id === e.message.id, `promote of ${e.message.id}`)
  })
  return problems
}
