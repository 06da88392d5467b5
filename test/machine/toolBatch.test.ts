/** Table tests of `toolStep.ts`: the tool batch, results in model order (R16, R21, R25). */
import { describe, expect, it } from 'vitest'
import type { Turn } from '../../src/machine/activity.js'
import type { Input } from '../../src/machine/inputs.js'
import type { DeliveryState } from '../../src/machine/state.js'
import {
  C,
  call,
  complete,
  draft,
  durable,
  type Expected,
  fold,
  live,
  modelEvent,
  result,
  show,
  text,
  turning,
} from '../support/machineFixtures.js'

describe('steps: the tool batch (R16, R21, R25)', () => {
  const calls = draft({
    content: [call('c1'), call('c2', 'write')],
    toolCalls: [call('c1'), call('c2', 'write')],
    finish: 'tool-calls',
  })
  const started = (index: number): Input => ({ type: 'tool/started', activity: 1, step: 1, index })
  type ToolRow = readonly [
    name: string,
    before: DeliveryState,
    inputs: readonly Input[],
    out: readonly Expected[],
    at: Pick<Turn, 'phase' | 'step' | 'toolResults'>,
  ]
  const rows: readonly ToolRow[] = [
    [
      'R21: a tool result is recorded right after its call',
      turning({ phase: 'tools', draft: calls }),
      [result(0, 'c1')],
      [
        live({ type: 'agent/tool/end', turn: 1, step: 1, callId: 'c1', index: 0, isError: false }),
        durable('tool/call', { turn: 1, step: 1, call: call('c1') }),
        durable('tool/result', {
          turn: 1,
          step: 1,
          result: { type: 'tool-result', toolCallId: 'c1', content: [text('ok')] },
        }),
      ],
      { phase: 'tools', step: 1, toolResults: 1 },
    ],
    [
      'R21: results are recorded in model order: a later call that finishes first waits',
      turning({ phase: 'tools', draft: calls }),
      [result(1, 'c2'), result(0, 'c1')],
      [
        'tool/end(c2)',
        'tool/end(c1)',
        'tool/call(read)',
        'tool/result(c1)',
        'tool/call(write)',
        'tool/result(c2)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { phase: 'step-hook', step: 2, toolResults: 0 },
    ],
    [
      'R16/R21: the last result closes the batch; context staged meanwhile enters after it; tools continue the turn',
      turning({ phase: 'tools', draft: calls, toolResults: 1 }, { outbox: [C('c9')] }),
      [result(1, 'c2')],
      [
        'tool/end(c2)',
        'tool/call(write)',
        'tool/result(c2)',
        'user(c9)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { phase: 'step-hook', step: 2, toolResults: 0 },
    ],
    [
      'R72: a dispatch publishes tool/start once; a buffered later call ends at its arrival, each end before its pair',
      turning({ phase: 'tools', draft: calls }),
      [started(0), started(0), result(1, 'c2'), result(0, 'c1')],
      [
        live({ type: 'agent/tool/start', turn: 1, step: 1, callId: 'c1', index: 0, name: 'read' }),
        'tool/end(c2)',
        'tool/end(c1)',
        'tool/call(read)',
        'tool/result(c1)',
        'tool/call(write)',
        'tool/result(c2)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { phase: 'step-hook', step: 2, toolResults: 0 },
    ],
  ]
  it.each(rows)('%s', (_name, before, inputs, out, at) => {
    const r = fold(before, inputs)
    expect(r.out.map((o, i) => (typeof out[i] === 'object' ? o : show(o)))).toStrictEqual(out)
    const a = r.state.activity
    expect(
      a?.kind === 'turn' ? { phase: a.phase, step: a.step, toolResults: a.toolResults } : a,
    ).toStrictEqual(at)
    expect(r.state.outbox).toStrictEqual([])
  })

  it('R23: a failing batch runner answers every call, closes the step and fails the turn', () => {
    const error = Object.create(null)
    const failed: Input = { type: 'tools/failed', activity: 1, step: 1, error }
    const r = fold(turning({ phase: 'tools', draft: calls }), [result(1, 'c2'), failed])
    expect(r.out.map(show)).toStrictEqual([
      'tool/end(c2)',
      'tool/end(c1,TOOL_ERROR)',
      'tool/call(read)',
      'tool/result(c1,TOOL_ERROR)',
      'tool/call(write)',
      'tool/result(c2)',
      'step/end(1.1)',
      'error(1.1)',
      'turn/end(1,error)',
      'settled(1,error)',
      'checkpoint#1',
    ])
    const first = r.out[3]
    expect(first?.kind === 'durable' && first.draft.data).toMatchObject({
      result: { toolCallId: 'c1', isError: true, code: 'TOOL_ERROR' },
    })
    // The call that had delivered its value keeps it.
    const second = r.out[5]
    expect(second?.kind === 'durable' && second.draft.data).toMatchObject({
      result: { toolCallId: 'c2', content: [text('ok')] },
    })
    expect(r.out[8]?.kind === 'durable' && r.out[8].draft.data).toStrictEqual({
      turn: 1,
      reason: { kind: 'error', step: 1, message: '[object Object]' },
    })
  })

  it('R23: a batch runner failure after a cancel changes nothing (the unwind records the batch)', () => {
    const aborted = turning({
      phase: 'tools',
      draft: calls,
      abort: { cause: { kind: 'user' }, keepInbox: false },
    })
    const r = fold(aborted, [{ type: 'tools/failed', activity: 1, step: 1, error: new Error('x') }])
    expect(r.out).toStrictEqual([])
    expect(r.state).toBe(aborted)
  })

  it('R21: the batch of a later step starts clean', () => {
    const one = draft({ content: [call('c1')], toolCalls: [call('c1')], finish: 'tool-calls' })
    const { out } = fold(turning({ phase: 'tools', draft: one }), [
      result(0, 'c1'),
      { type: 'step-hook/done', activity: 1, step: 2 },
      modelEvent({ type: 'tool-call', id: 'c2', name: 'write', arguments: '{}' }, 2),
      complete(2),
      {
        type: 'tool/result',
        activity: 1,
        step: 2,
        index: 0,
        result: { type: 'tool-result', toolCallId: 'c2', content: [] },
        concluded: false,
      },
    ])
    expect(out.map(show).slice(-7)).toStrictEqual([
      'assistant(write())',
      'tools#1(1.2,c2)',
      'tool/end(c2)',
      'tool/call(write)',
      'tool/result(c2)',
      'step/end(1.2)',
      'step-hook#1(1.3)',
    ])
  })
})
