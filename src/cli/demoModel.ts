import { concatMap, from, map, type Observable, of, timer } from 'rxjs'
import type { ContentBlock, Message, ToolResultBlock } from '../contracts/messages.js'
import type { ModelAdapter, ModelEvent, ModelRequest } from '../contracts/model.js'
import { wordDeltas } from '../testing.js'
import type { DemoTimings } from './demoTools.js'

const textOf = (content: readonly ContentBlock[]): string =>
  content
    .map((b) => (b.type === 'text' ? b.text : b.type === 'tool-result' ? textOf(b.content) : ''))
    .join('')

/** The messages since the model last asked for a tool, or since the turn's prompt. */
const lastExchange = (messages: readonly Message[]): readonly Message[] => {
  let i = messages.length - 1
  while (i >= 0 && messages[i]?.role !== 'assistant') i--
  return messages.slice(i + 1)
}

const topicOf = (text: string): string =>
  text
    .split(/\s+/)
    .slice(0, 4)
    .join(' ')
    .replace(/[?.!,]+$/, '')

/** A tool call the demo model makes: which tool, with what arguments. */
export type DemoCall = { readonly name: 'notes' | 'delete_file'; readonly args: Record<string, string> }

/** `delete notes.txt` (anywhere in the prompt) asks for the tool that needs approval. */
const DELETE = /\bdelete\s+(\S+)/i

const firstCall = (prompt: string): { text: string; call: DemoCall } => {
  const path = DELETE.exec(prompt)?.[1]?.replace(/[?.!,]+$/, '')
  if (path)
    return {
      text: `Deleting "${path}" needs your approval.`,
      call: { name: 'delete_file', args: { path } },
    }
  return {
    text: `Let me check my notes on "${topicOf(prompt)}".`,
    call: { name: 'notes', args: { topic: topicOf(prompt) } },
  }
}

/** What the demo says about one tool result: a denied call is reported as such, with its reason. */
const reportOn = (result: ToolResultBlock): string => {
  const text = textOf(result.content)
  if (result.code === 'DENIED') return `I left it alone. ${text}`
  return result.toolCallId.startsWith('delete_file-') ? `Done: ${text}` : `My notes say: ${text}`
}

/**
 * The reply of the offline demo model, decided by the request alone (deterministic): step 1
 * answers the prompt by calling the `notes` tool (or `delete_file`, which needs approval, when
 * the prompt says `delete <path>`); later steps report the tool results and acknowledge every
 * steer that arrived meanwhile, so a person can watch steering land.
 */
export const demoReply = (request: ModelRequest): { text: string; call?: DemoCall } => {
  const exchange = lastExchange(request.messages)
  const users = exchange.filter((m) => m.role === 'user').map((m) => textOf(m.content))
  const results = exchange.flatMap((m) =>
    m.role === 'tool' ? m.content.filter((b): b is ToolResultBlock => b.type === 'tool-result') : [],
  )
  if (request.step === 1) return firstCall(users[users.length - 1] ?? 'that')
  const parts = results.map(reportOn)
  for (const steer of users) parts.push(`You said "${steer}", so I will take that into account.`)
  if (parts.length === 0) parts.push('Done.')
  return { text: `${parts.join(' ')} Anything else?` }
}

const stream = (events: readonly ModelEvent[], wordMs: number): Observable<ModelEvent> =>
  from(events).pipe(
    concatMap((event) => (event.type === 'text' ? timer(wordMs).pipe(map(() => event)) : of(event))),
  )

/** The offline demo model: streams its answer word by word with a visible delay. */
export const demoModel =
  (timings: DemoTimings): ModelAdapter =>
  (request) => {
    const reply = demoReply(request)
    const events: ModelEvent[] = wordDeltas(reply.text).map((text) => ({ type: 'text', text }))
    if (reply.call) {
      events.push({
        type: 'tool-call',
        id: `${reply.call.name}-${request.turn}-${request.step}`,
        name: reply.call.name,
        arguments: JSON.stringify(reply.call.args),
      })
    }
    events.push({ type: 'finish', reason: reply.call ? 'tool-calls' : 'stop' })
    return stream(events, timings.wordMs)
  }
