/**
 * R37, R51, V9: closing a turn a crash interrupted. Every call of the open step that has no
 * result gets one, matched by its place in the step: the model may give two calls one id, or an
 * empty one, and each still needs its own `tool/call` and `tool/result`.
 */
import { describe, expect, it } from 'vitest'
import type { DurableDraft, SessionEvent } from '../../src/contracts/events.js'
import { closeInterruptedTurn } from '../../src/session/closeInterruptedTurn.js'

type Draft = Omit<SessionEvent, 'seq'>
const log = (...drafts: readonly Draft[]): SessionEvent[] =>
  drafts.map((d, i) => ({ seq: i + 1, ...d }) as SessionEvent)

const at = { turn: 1, step: 1 }
const call = (id: string, cmd: string) => ({ type: 'tool-call' as const, id, name: 'shell', arguments: cmd })
const start: Draft[] = [
  { type: 'turn/start', data: { turn: 1, trigger: { kind: 'message', source: { kind: 'user' } } } },
  { type: 'step/start', data: at },
]
const asked = (...calls: ReturnType<typeof call>[]): Draft => ({
  type: 'assistant/message',
  data: { ...at, content: calls },
})
const toolCall = (c: ReturnType<typeof call>): Draft => ({ type: 'tool/call', data: { ...at, call: c } })
const result = (toolCallId: string): Draft => ({
  type: 'tool/result',
  data: { ...at, result: { type: 'tool-result', toolCallId, content: [] } },
})

const first = call('c1', 'rm /tmp/a')
const second = call('c1', 'rm /')

/** What the close writes, as labels: `call(args)`, `result(id,code)`, `step/end`, `turn/end`. */
const labels = (drafts: readonly DurableDraft[]) =>
  drafts.map((d) =>
    d.type === 'tool/call'
      ? `call(${d.data.call.arguments})`
      : d.type === 'tool/result'
        ? `result(${d.data.result.toolCallId},${d.data.result.code})`
        : d.type,
  )

describe('closeInterruptedTurn (R37, R51, V9)', () => {
  it('V9/R51: the second of two calls that share an id gets its result after the first was answered', () => {
    const drafts = closeInterruptedTurn(log(...start, asked(first, second), toolCall(first), result('c1')))
    expect(labels(drafts)).toEqual(['call(rm /)', 'result(c1,ABORTED)', 'step/end', 'turn/end'])
  })

  it('V9/R51: both get one when neither was answered; a logged tool/call is not written again', () => {
    const drafts = closeInterruptedTurn(log(...start, asked(first, second), toolCall(first)))
    expect(labels(drafts)).toEqual([
      'result(c1,ABORTED)',
      'call(rm /)',
      'result(c1,ABORTED)',
      'step/end',
      'turn/end',
    ])
  })

  it('V9/R51: a call whose id is empty is answered like any other', () => {
    const empty = call('', 'ls')
    const drafts = closeInterruptedTurn(
      log(...start, asked(empty, call('', 'pwd')), toolCall(empty), result('')),
    )
    expect(labels(drafts)).toEqual(['call(pwd)', 'result(,ABORTED)', 'step/end', 'turn/end'])
  })

  it('R51: a step whose calls all have results only gets its ends', () => {
    const drafts = closeInterruptedTurn(
      log(...start, asked(first, second), toolCall(first), result('c1'), toolCall(second), result('c1')),
    )
    expect(labels(drafts)).toEqual(['step/end', 'turn/end'])
  })
})
