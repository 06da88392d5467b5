/**
 * R41 after each top-level step: `agent.inbox` is the fold of the live events so far (fold.ts):
 * the same queue ids in order with the same messages, the same staged steering in order. Queued
 * and parked collapse to the events' `queued`; parked-ness is judged from the schedule: a parked
 * send stays parked until a promote makes it waking (R8, R46). Staged context has no event: it is
 * checked against what was injected and is neither in the transcript nor withdrawn (R43).
 */
import { isDeepStrictEqual } from 'node:util'
import type { Agent, InboxItem } from '../../src/index.js'
import type { InboxFold } from './fold.js'
import type { Log } from './log.js'

const ids = (items: readonly { readonly message: { readonly id: string } }[]) =>
  items.map((i) => i.message.id)

export const checkInboxView = (log: Log, fold: InboxFold, agent: Agent, where: string): void => {
  fold.advance()
  const view = agent.inbox
  const p = (s: string) => log.problems.push(`R41 ${where}: ${s}`)
  const name = (id: string) => `"${log.sent.get(id)?.text ?? '?'}"`
  if (!Object.isFrozen(view) || !Object.isFrozen(view.queue) || !Object.isFrozen(view.outbox))
    p('agent.inbox is not frozen')
  if (agent.inbox !== view) p('agent.inbox is a new object though nothing changed')

  const queue = ids(view.queue)
  if (queue.join() !== ids(fold.queue).join())
    p(`queue [${queue.map(name)}] ≠ the events' [${ids(fold.queue).map(name)}]`)
  else
    view.queue.forEach((item, i) => {
      if (!isDeepStrictEqual(item.message, fold.queue[i]?.message))
        p(`queued ${name(item.message.id)} shows another message than its last event`)
      const placement = expectedQueuePlacement(log, item.message.id)
      if (placement !== undefined && item.placement !== placement)
        p(`${name(item.message.id)} is ${item.placement}, expected ${placement}`)
    })

  const steering = view.outbox.filter((i) => i.placement === 'steering')
  if (ids(steering).join() !== ids(fold.steering).join())
    p(`steering [${ids(steering).map(name)}] ≠ the events' [${ids(fold.steering).map(name)}]`)
  else
    steering.forEach((item, i) => {
      if (!isDeepStrictEqual(item.message, fold.steering[i]?.message))
        p(`steering ${name(item.message.id)} shows another message than its last event`)
    })
  for (const item of view.outbox)
    if (item.placement !== 'steering' && item.placement !== 'context')
      p(`outbox item placed ${item.placement}`)
  checkContexts(
    log,
    view.outbox.filter((i) => i.placement === 'context'),
    p,
  )
}

/**
 * A queued item is waking unless it was sent parked; a parked one turns waking when a promote
 * finds it in the queue while the window is closed (R46). A promote from a subscriber may have
 * found it or not (it is processed after the call): then either is fine.
 */
const expectedQueuePlacement = (log: Log, id: string): InboxItem['placement'] | undefined => {
  if (log.sent.get(id)?.kind !== 'parked') return 'queued'
  const promotes = log.controls.filter((c) => c.kind === 'promote' && c.id === id && c.error === undefined)
  if (promotes.some((c) => c.origin === 'step' && !c.window && ids(c.before.queue).includes(id)))
    return 'queued'
  return promotes.length > 0 ? undefined : 'parked'
}

/**
 * Staged context: every inject that is not in the transcript, unless a remove named it (then it
 * may be gone; once gone it never comes back). Its text is the sent one or a replace's.
 */
const checkContexts = (log: Log, contexts: readonly InboxItem[], p: (s: string) => void): void => {
  const appended = new Set<string>()
  for (const e of log.durable)
    if (e.type === 'user/message' && e.data.id !== undefined) appended.add(e.data.id)
  const shown = new Set(ids(contexts))
  for (const item of contexts) {
    const { id } = item.message
    const sent = log.sent.get(id)
    if (sent?.kind !== 'inject') p(`context ${id} was not injected (${sent?.kind})`)
    else if (appended.has(id)) p(`context "${sent.text}" is staged and in the transcript`)
    const first = item.message.content[0]
    const text = first?.type === 'text' ? first.text : '?'
    const texts = [
      sent?.text,
      ...log.controls.filter((c) => c.kind === 'replace' && c.id === id).map((c) => c.text),
    ]
    if (!texts.includes(text)) p(`context "${sent?.text}" shows "${text}", neither sent nor replaced`)
  }
  for (const [id, sent] of log.sent) {
    if (sent.kind !== 'inject' || appended.has(id) || shown.has(id)) continue
    const removed = log.controls.some((c) => c.kind === 'remove' && c.id === id && c.error === undefined)
    if (!removed) p(`inject("${sent.text}") is neither staged nor in the transcript, and no remove named it`)
  }
}
