import type { DurableDraft, SessionEvent } from '../contracts/events.js'
import type { ToolCallBlock, ToolResultBlock } from '../contracts/messages.js'

type OpenCall = { readonly call: ToolCallBlock; logged: boolean; answered: boolean }

/**
 * A session that stopped inside a turn (the process died before or during a checkpoint's write):
 * the resumed agent closes that turn as aborted (R37, R51), so the log stays balanced and its
 * projection stays a valid conversation. In order:
 *
 * 1. each tool call of the open step that has no result gets an `isError` `tool/result` with
 *    code `ABORTED` (after its `tool/call`, written too when the crash came before it): a request
 *    whose history holds an unanswered call is refused by Chat Completions servers;
 * 2. `step/end` when a step is open;
 * 3. `turn/end {aborted}` (no `settled`: nobody was waiting for it in this process).
 *
 * Calls are matched by their place, not their id: the model may give two calls of a step one id
 * (or an empty one), and each still needs its own result. A step records its pairs in model order
 * (R21), so a `tool/call` or `tool/result` belongs to the first call with that id that lacks one.
 */
export const closeInterruptedTurn = (history: readonly SessionEvent[]): DurableDraft[] => {
  let openTurn: number | undefined
  let openStep: number | undefined
  let calls: OpenCall[] = []
  for (const event of history) {
    switch (event.type) {
      case 'turn/start':
        openTurn = event.data.turn
        break
      case 'turn/end':
        openTurn = openStep = undefined
        break
      case 'step/start':
        openStep = event.data.step
        calls = []
        break
      case 'step/end':
        openStep = undefined
        calls = []
        break
      case 'assistant/message':
        for (const block of event.data.content)
          if (block.type === 'tool-call') calls.push({ call: block, logged: false, answered: false })
        break
      case 'tool/call': {
        const open = calls.find((c) => !c.logged && c.call.id === event.data.call.id)
        if (open) open.logged = true
        else calls.push({ call: event.data.call, logged: true, answered: false })
        break
      }
      case 'tool/result': {
        const open = calls.find((c) => !c.answered && c.call.id === event.data.result.toolCallId)
        if (open) open.answered = true
        break
      }
    }
  }
  if (openTurn === undefined) return []
  const drafts: DurableDraft[] = []
  if (openStep !== undefined) {
    const at = { turn: openTurn, step: openStep }
    for (const { call, logged, answered } of calls) {
      if (answered) continue
      if (!logged) drafts.push({ type: 'tool/call', data: { ...at, call } })
      drafts.push({ type: 'tool/result', data: { ...at, result: abortedResult(call.id) } })
    }
    drafts.push({ type: 'step/end', data: at })
  }
  drafts.push({ type: 'turn/end', data: { turn: openTurn, reason: { kind: 'aborted' } } })
  return drafts
}

const abortedResult = (toolCallId: string): ToolResultBlock => ({
  type: 'tool-result',
  toolCallId,
  content: [{ type: 'text', text: 'Not answered: the process stopped while this call was running.' }],
  isError: true,
  code: 'ABORTED',
})
