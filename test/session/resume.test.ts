/**
 * R37, R51: a log that ends inside a turn is closed on open, and the projection it leaves is a
 * valid conversation: every tool call of the interrupted step is answered (`ABORTED`), so the next
 * model request does not carry an unanswered call (Chat Completions servers refuse those).
 */
import { describe, expect, it } from 'vitest'
import { createAgent, type Message, type SessionEvent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

const call = (id: string) => ({ type: 'tool-call' as const, id, name: 'read', arguments: '{}' })
const result = (id: string) => ({ type: 'tool-result' as const, toolCallId: id, content: [] })

/** A turn whose step 1 asked for two tools; `upTo` events of it were saved before the crash. */
const interrupted = (upTo: number): SessionEvent[] => {
  const drafts = [
    { type: 'turn/start', data: { turn: 1, trigger: { kind: 'message', source: { kind: 'user' } } } },
    { type: 'user/message', data: { content: [{ type: 'text', text: 'go' }], source: { kind: 'user' } } },
    { type: 'step/start', data: { turn: 1, step: 1 } },
    { type: 'assistant/message', data: { turn: 1, step: 1, content: [call('c1'), call('c2')] } },
    { type: 'tool/call', data: { turn: 1, step: 1, call: call('c1') } },
    { type: 'tool/result', data: { turn: 1, step: 1, result: result('c1') } },
    { type: 'tool/call', data: { turn: 1, step: 1, call: call('c2') } },
  ]
  return drafts.slice(0, upTo).map((d, i) => ({ seq: i + 1, ...d }) as SessionEvent)
}

/** Every tool call of an assistant message is answered by a later tool message. */
const unanswered = (messages: readonly Message[]): string[] => {
  const open = new Set<string>()
  for (const m of messages)
    for (const block of m.content) {
      if (block.type === 'tool-call') open.add(block.id)
      if (block.type === 'tool-result') open.delete(block.toolCallId)
    }
  return [...open]
}

const tail = (events: readonly SessionEvent[], from: number) =>
  events.slice(from).map((e) => {
    if (e.type === 'tool/result') return `tool/result(${e.data.result.toolCallId},${e.data.result.code})`
    if (e.type === 'tool/call') return `tool/call(${e.data.call.id})`
    if (e.type === 'turn/end') return `turn/end(${e.data.reason.kind})`
    return e.type
  })

describe('R51: closing an interrupted turn on resume answers its open tool calls', () => {
  it.each([
    [4, ['tool/call(c1)', 'tool/result(c1,ABORTED)', 'tool/call(c2)', 'tool/result(c2,ABORTED)']],
    [5, ['tool/result(c1,ABORTED)', 'tool/call(c2)', 'tool/result(c2,ABORTED)']],
    [6, ['tool/call(c2)', 'tool/result(c2,ABORTED)']],
    [7, ['tool/result(c2,ABORTED)']],
  ])('R51: saved up to event %i', async (upTo, answers) => {
    const history = interrupted(upTo)
    const model = scriptedModel(['next'])
    const agent = createAgent({ model, history })
    expect(tail(agent.session.events, upTo)).toEqual([...answers, 'step/end', 'turn/end(aborted)'])
    expect(unanswered(agent.session.messages())).toEqual([])
    agent.followup('again')
    await agent.whenIdle()
    expect(unanswered(model.requests[0]?.messages ?? [])).toEqual([])
    expect(model.requests).toHaveLength(1)
    await agent.dispose()
  })

  it('R51: a log that stopped before the step started closes only the turn', () => {
    const agent = createAgent({ model: scriptedModel([]), history: interrupted(2) })
    expect(tail(agent.session.events, 2)).toEqual(['turn/end(aborted)'])
  })
})
