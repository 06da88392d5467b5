import { concatMap, from, map, type Observable, of, timer } from 'rxjs'
import { z } from 'zod'
import type { ContentBlock, Message } from '../contracts/messages.js'
import type { ModelAdapter, ModelEvent, ModelRequest } from '../contracts/model.js'
import { defineTool } from '../index.js'
import { wordDeltas } from '../testing.js'

/** How long the demo takes per streamed word and per tool call; tests make it short. */
export type DemoTimings = { readonly wordMs: number; readonly toolMs: number }

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

/**
 * The reply of the offline demo model, decided by the request alone (deterministic): step 1
 * answers the prompt by calling the `notes` tool; later steps report the tool result and
 * acknowledge every steer that arrived meanwhile, so a person can watch steering land.
 */
export const demoReply = (request: ModelRequest): { text: string; call?: { topic: string } } => {
  const exchange = lastExchange(request.messages)
  const users = exchange.filter((m) => m.role === 'user').map((m) => textOf(m.content))
  const results = exchange.filter((m) => m.role === 'tool').map((m) => textOf(m.content))
  if (request.step === 1) {
    const prompt = users[users.length - 1] ?? 'that'
    return { text: `Let me check my notes on "${topicOf(prompt)}".`, call: { topic: topicOf(prompt) } }
  }
  const parts = results.map((r) => `My notes say: ${r}`)
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
      const args = JSON.stringify({ topic: reply.call.topic })
      events.push({
        type: 'tool-call',
        id: `notes-${request.turn}-${request.step}`,
        name: 'notes',
        arguments: args,
      })
    }
    events.push({ type: 'finish', reason: reply.call ? 'tool-calls' : 'stop' })
    return stream(events, timings.wordMs)
  }

/** The demo's one tool: slow enough that a steer can arrive while it runs. */
export const notesTool = (timings: DemoTimings) =>
  defineTool({
    name: 'notes',
    description: 'Looks a topic up in the demo notes.',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) =>
      timer(timings.toolMs).pipe(
        map(() => `"${topic}" is a fine topic; steering lands between the steps of the running turn.`),
      ),
  })
