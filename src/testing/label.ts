import { filter, map, merge, type Observable } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import type { AgentEvent, SessionEvent } from '../contracts/events.js'
import type { AgentMessage, ContentBlock, ToolResultBlock } from '../contracts/messages.js'
import { mediaLabel } from '../messages/mediaBlocks.js'

const textOf = (content: readonly ContentBlock[]): string => {
  const first = content[0]
  if (!first) return ''
  if (first.type === 'text' || first.type === 'reasoning') return first.text
  if (first.type === 'tool-call') return `${first.name}()`
  if (first.type === 'image' || first.type === 'file') return mediaLabel(first)
  return `result:${first.toolCallId}`
}
const textsOf = (messages: readonly AgentMessage[]) => messages.map((m) => textOf(m.content)).join(',')

/**
 * A short, stable label for any live or durable event, for marble value legends and logs:
 * `enqueue(hi,queued)`, `running`, `dequeue(hi)`, `discard:removed(hi)`, `replace(hi)`, `turn/start(1)`, `user(hi)`, `step/start(1.1)`,
 * `assistant(Hello)`, `turn/end(1,completed)`, `settled(1,completed)` … Messages show the text
 * of their first block.
 */
export const label = (event: AgentEvent | SessionEvent): string => {
  if ('seq' in event) return durableLabel(event)
  switch (event.type) {
    case 'agent/inbox/enqueue':
      return `enqueue(${textOf(event.message.content)},${event.placement})`
    case 'agent/inbox/dequeue':
      return `dequeue(${textOf(event.message.content)})`
    case 'agent/inbox/discard':
      // A cancel's or dispose()'s discard keeps the short form; the others name their reason.
      return event.reason === 'cancel' || event.reason === 'dispose'
        ? `discard(${textsOf(event.messages)})`
        : `discard:${event.reason}(${textsOf(event.messages)})`
    case 'agent/inbox/replace':
      return `replace(${textOf(event.message.content)})`
    case 'agent/inbox/reorder':
      return `reorder(${event.ids.length})`
    case 'agent/status':
      return event.status
    case 'agent/cancel-requested':
      return `cancel(${event.cause.kind})`
    case 'agent/settled':
      return `settled(${event.turn},${event.reason.kind})`
    case 'agent/error':
      return `error(${event.turn}.${event.step})`
    case 'agent/stream/delta':
      return `delta(${event.text})`
    case 'agent/approval/requested':
      return `approval?(${event.name})`
    case 'agent/budget/exceeded':
      return `budget/exceeded(${event.turn}.${event.step})`
    case 'agent/tool/start':
      return `tool/start(${event.callId})`
    case 'agent/tool/end':
      return `tool/end(${event.callId}${event.code ? `,${event.code}` : ''})`
    case 'agent/compaction/start':
      return 'compaction/start'
    case 'agent/compaction/end':
      return `compaction/end(${event.result.kind})`
    case 'agent/request/retry':
      return `retry(${event.turn}.${event.step},${event.attempt},${event.delayMs})`
  }
}

const durableLabel = (event: SessionEvent): string => {
  switch (event.type) {
    case 'user/message':
      return `user(${textOf(event.data.content)})`
    case 'steering/message':
      return `steering(${textOf(event.data.content)}${event.data.interrupt ? ',cut' : ''})`
    case 'turn/start':
      return `turn/start(${event.data.turn}${event.data.trigger.kind === 'retry' ? ',retry' : ''})`
    case 'turn/end':
      return `turn/end(${event.data.turn},${event.data.reason.kind})`
    case 'step/start':
      return `step/start(${event.data.turn}.${event.data.step})`
    case 'step/end':
      return `step/end(${event.data.turn}.${event.data.step}${event.data.interrupted ? ',cut' : ''})`
    case 'assistant/message':
      return `assistant(${textOf(event.data.content)}${event.data.interrupted ? ',cut' : ''})`
    case 'tool/call':
      return `tool/call(${event.data.call.name})`
    case 'tool/result':
      return `tool/result(${toolResultLabel(event.data.result)})`
    case 'approval/request':
      return `approval/request(${event.data.name})`
    case 'approval/decision':
      return `approval/decision(${event.data.decision}${event.data.reason ? `,${event.data.reason}` : ''})`
    case 'budget/pause':
      return `budget/pause(${event.data.turn}.${event.data.step})`
    case 'compaction':
      return `compaction(${event.data.keptFromSeq})`
    case 'rollback':
      return `rollback(${event.data.toTurn})`
    case 'fork':
      return `fork(${event.data.atTurn})`
    case 'tools/changed':
      return `tools(${[...event.data.added.map((n) => `+${n}`), ...event.data.removed.map((n) => `-${n}`)].join(',')})`
  }
}

/**
 * Labelled streams of an agent for marble specs: `events$` (live; deltas and the tool lifecycle
 * left out unless asked for), `transcript$` (durable events appended from now on), and
 * `timeline$`, both interleaved in the one global order.
 */
export const labelled = (
  agent: Agent,
  options: { readonly deltas?: boolean; readonly tools?: boolean } = {},
) => {
  const from = agent.session.events.length
  const shown = (event: AgentEvent): boolean =>
    event.type === 'agent/stream/delta'
      ? options.deltas === true
      : event.type === 'agent/tool/start' || event.type === 'agent/tool/end'
        ? options.tools === true
        : true
  const events$ = agent.events$.pipe(map((event) => (shown(event) ? label(event) : undefined)))
  const live$: Observable<string> = events$.pipe(filterDefined())
  const transcript$: Observable<string> = agent.transcript$.pipe(
    map((event) => (event.seq > from ? label(event) : undefined)),
    filterDefined(),
  )
  return { events$: live$, transcript$, timeline$: merge(live$, transcript$) }
}

const filterDefined = () => filter((value: string | undefined): value is string => value !== undefined)

const toolResultLabel = (result: ToolResultBlock): string =>
  result.isError ? `${result.toolCallId},${result.code ?? 'error'}` : result.toolCallId
