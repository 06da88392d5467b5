import type { AgentEvent } from '../contracts/events.js'
import type { LayoutBuilder } from './builder.js'
import { layoutStatus } from './layoutPauses.js'
import { contentText } from './shapes.js'
import type { TimelineEntry } from './types.js'

/** Lays out one live event: inbox bars and their marks, the status lane, other marks. */
export const layoutLive = (
  b: LayoutBuilder,
  e: AgentEvent,
  entry: TimelineEntry,
  at: number,
  text: string,
) => {
  if (e.type === 'agent/inbox/enqueue') {
    const m = e.message
    const message = contentText(m.content)
    const info = {
      message,
      id: m.id,
      placement: e.placement,
      source: m.source,
      outcome: 'still waiting',
      events: [entry],
    }
    const bar = b.start({
      key: `msg:${m.id}`,
      lane: 'inbox',
      at,
      cls: `msg ${e.placement}`,
      text: message,
      info,
      id: m.id,
    })
    b.mark({ lane: 'inbox', row: bar.row, at, cls: 'enqueue', text, info: { id: m.id, event: e }, id: m.id })
  } else if (e.type === 'agent/inbox/dequeue') {
    b.claims.set(e.message.id, at)
    const bar = b.close(`msg:${e.message.id}`, at, { outcome: 'dequeued: delivered into the turn' })
    if (bar) (b.infoOf(bar).events as unknown[]).push(entry)
    b.mark({
      lane: 'inbox',
      row: bar?.row ?? 0,
      at,
      cls: 'dequeue',
      text,
      info: { id: e.message.id, event: e },
      id: e.message.id,
    })
  } else if (e.type === 'agent/inbox/discard') {
    for (const m of e.messages) {
      const bar = b.close(`msg:${m.id}`, at, { outcome: `discarded (${e.reason})` })
      if (bar) (b.infoOf(bar).events as unknown[]).push(entry)
      const info = { id: m.id, reason: e.reason, event: e }
      b.mark({ lane: 'inbox', row: bar?.row ?? 0, at, cls: 'dequeue discard', text, info, id: m.id })
    }
  } else if (e.type === 'agent/inbox/replace') {
    const bar = b.opened(`msg:${e.message.id}`)
    if (bar) {
      bar.text = contentText(e.message.content)
      b.infoOf(bar).message = bar.text
      ;(b.infoOf(bar).events as unknown[]).push(entry)
    }
    b.mark({
      lane: 'inbox',
      row: bar?.row ?? 0,
      at,
      cls: 'replace',
      text,
      info: { id: e.message.id, event: e },
      id: e.message.id,
    })
  } else if (e.type === 'agent/status') {
    layoutStatus(b, e.status, entry, at)
  } else {
    const kind = e.type.split('/').slice(1).join('-')
    b.mark({ lane: 'status', row: 1, at, cls: `live ${kind}`, text, info: { event: e } })
  }
}
