import type { SessionEvent } from '../contracts/events.js'
import type { InboxRecord } from '../contracts/inbox.js'
import type { LayoutBuilder } from './builder.js'
import { layoutPauseDurable } from './layoutPauses.js'
import { contentText } from './shapes.js'

/** Lays out one durable event: its transcript mark, the arrow of the message it carries, turns, steps, tools, pauses. */
export const layoutDurable = (b: LayoutBuilder, e: SessionEvent, at: number, text: string) => {
  b.mark({
    lane: 'transcript',
    row: 0,
    at,
    cls: `durable ${e.type.replace('/', '-')}${cutOrCancelled(e)}`,
    text,
    info: { seq: e.seq, event: e },
  })
  layoutPauseDurable(b, e, at)
  if ((e.type === 'user/message' || e.type === 'steering/message') && e.data.id !== undefined) {
    const bar = b.bar(e.data.id)
    if (bar) {
      b.infoOf(bar).landed = `${e.type} seq ${e.seq}${'turn' in e.data ? ` (turn ${e.data.turn})` : ''}`
      b.link(bar, at)
    }
  }
  if (e.type === 'turn/start') {
    const { turn, trigger } = e.data
    const claim =
      trigger.kind === 'message' && trigger.id !== undefined ? b.claims.get(trigger.id) : undefined
    const info = { turn, trigger, claimedAt: claim ?? at, events: [e] }
    b.start({ key: `turn:${turn}`, lane: 'turns', at, cls: 'turn', text: `turn ${turn}`, info })
  } else if (e.type === 'turn/end') {
    const bar = b.close(`turn:${e.data.turn}`, at, { reason: e.data.reason })
    if (bar) {
      const info = b.infoOf(bar)
      bar.text = `turn ${e.data.turn} (${e.data.reason.kind})`
      ;(info.events as unknown[]).push(e)
      b.window(info.claimedAt as number, at, bar.info)
    }
  } else if (e.type === 'step/start') {
    const { turn, step } = e.data
    b.start({
      key: `step:${turn}.${step}`,
      lane: 'steps',
      at,
      cls: 'step',
      text: `${turn}.${step}`,
      info: { turn, step, events: [e] },
    })
  } else if (e.type === 'step/end') {
    const bar = b.close(`step:${e.data.turn}.${e.data.step}`, at, { endedAtSeq: e.seq })
    if (bar && e.data.interrupted) {
      bar.cls = 'step cut'
      bar.text += ' cut'
    }
  } else if (e.type === 'assistant/message' || e.type === 'tool/call') {
    // A tool runs from the moment the model asked for it (its block in the assistant message);
    // the durable `tool/call` comes with its result, after the tool ran.
    const { turn, step } = e.data
    const calls =
      e.type === 'tool/call' ? [e.data.call] : e.data.content.filter((c) => c.type === 'tool-call')
    for (const call of calls) {
      if (b.opened(`tool:${call.id}`) || b.bar(`tool:${call.id}`)) continue
      const info = { call, turn, step }
      b.start({
        key: `tool:${call.id}`,
        lane: 'tools',
        at,
        cls: 'tool',
        text: call.name,
        info,
        id: `tool:${call.id}`,
      })
    }
  } else if (e.type === 'tool/result') {
    const result = e.data.result
    const bar = b.close(`tool:${result.toolCallId}`, at, { result })
    if (bar && result.code === 'CANCELLED') {
      bar.cls = 'tool error cancelled'
      bar.text += ' (cancelled)'
    } else if (bar && result.isError) bar.cls = 'tool error'
  }
}

/**
 * The mark's extra class: ` cut` for the message and the step end of a step an interrupting steer
 * cut (R68), ` cancelled` for the result of a call `cancelToolCall` cancelled (R71).
 */
const cutOrCancelled = (e: SessionEvent): string => {
  if ((e.type === 'assistant/message' || e.type === 'step/end') && e.data.interrupted) return ' cut'
  return e.type === 'tool/result' && e.data.result.code === 'CANCELLED' ? ' cancelled' : ''
}

/** Lays out one record of a file store's inbox journal: what still waited, or how it settled. */
export const layoutJournal = (b: LayoutBuilder, r: InboxRecord, at: number, text: string) => {
  if (r.op === 'add') {
    const message = contentText(r.message.content)
    const info = {
      message,
      id: r.message.id,
      placement: r.placement,
      outcome: 'still waiting when the log was written',
      record: r,
    }
    b.start({
      key: `msg:${r.message.id}`,
      lane: 'inbox',
      at,
      cls: `msg ${r.placement}`,
      text: message,
      info,
      id: r.message.id,
    })
  } else if (r.op !== 'settle' || b.close(`msg:${r.id}`, at, { outcome: r.outcome }) === undefined) {
    b.mark({ lane: 'inbox', row: 0, at, cls: 'journal', text, info: { record: r } })
  }
}
