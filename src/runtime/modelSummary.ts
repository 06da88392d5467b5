import { from, Observable } from 'rxjs'
import type { Message, Usage } from '../contracts/messages.js'
import type { ModelAdapter, ModelRequest } from '../contracts/model.js'
import { estimateTokens, mergeUsage } from '../machine/requestUsage.js'
import { messageChars } from '../session/projectMessages.js'
import { parseModelEvent } from './parseModelEvent.js'

/** What the default summariser tells the model it is doing (R74). */
export const SUMMARY_SYSTEM =
  'You compact the history of a conversation between a user and an AI agent. Write a summary ' +
  'that lets the agent carry on as if it still had the whole history: the goals and requests, ' +
  'decisions made, facts learned, tool results that still matter, and work left to do. Keep ' +
  'names, numbers and identifiers exact. Write only the summary.'

/** The request that follows the history it summarises. */
export const SUMMARY_REQUEST: Message = Object.freeze({
  role: 'user',
  content: Object.freeze([
    Object.freeze({ type: 'text', text: 'Summarise the conversation so far, as the instructions say.' }),
  ]),
}) as Message

/** One piece of a summary as it streams, or the request's usage once known. */
export type SummaryPiece = { readonly text: string } | { readonly usage: Usage }

/**
 * The default summariser: the agent's own model, with the built-in prompt and no tools. Its text
 * streams as pieces; its usage (R73) is what the provider reported, else an estimate marked so.
 */
export const modelSummary = (
  model: ModelAdapter,
  at: { readonly agentId: string; readonly turn: number },
  messages: readonly Message[],
  signal: AbortSignal,
): Observable<SummaryPiece> =>
  new Observable<SummaryPiece>((subscriber) => {
    const request: ModelRequest = {
      agentId: at.agentId,
      turn: at.turn,
      step: 0,
      system: SUMMARY_SYSTEM,
      messages: Object.freeze([...messages, SUMMARY_REQUEST]),
      tools: [],
      signal,
    }
    let usage: Usage | undefined
    let chars = 0
    const done = (): void => {
      const input = messages.reduce((n, m) => n + messageChars(m), SUMMARY_SYSTEM.length)
      subscriber.next({
        usage: usage ?? {
          inputTokens: estimateTokens(input),
          outputTokens: estimateTokens(chars),
          estimated: true,
        },
      })
      subscriber.complete()
    }
    return from(model(request)).subscribe({
      next: (raw) => {
        if (subscriber.closed) return
        let event: ReturnType<typeof parseModelEvent>
        try {
          event = parseModelEvent(raw)
        } catch (error) {
          return subscriber.error(error)
        }
        if (event.type === 'text') {
          chars += event.text.length
          subscriber.next({ text: event.text })
        } else if (event.type === 'usage') usage = mergeUsage(usage, event.usage)
        else if (event.type === 'finish') {
          if (event.usage) usage = mergeUsage(usage, event.usage)
          done()
        }
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        if (!subscriber.closed) done()
      },
    })
  })
