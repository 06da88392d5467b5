/** Table tests of `step.ts`: the step hook, the model stream, finish and continuation, failures. */
import { describe, it } from 'vitest'
import type { Turn } from '../../src/machine/activity.js'
import {
  between,
  boom,
  C,
  call,
  checkIgnored,
  checkRow,
  complete,
  draft,
  durable,
  effect,
  type IgnoredRow,
  live,
  modelEvent,
  type Row,
  result,
  S,
  stepHook,
  text,
  turn,
  turning,
} from '../support/machineFixtures.js'

// ---------------------------------------------------------------------------------------------
// Steps (R15–R18, R20, R21, R23, R24)

const closed = { window: false, activity: between() } as const
const finished = ['turn/end(1,completed)', 'settled(1,completed)', 'checkpoint#1']

describe('steps: step hook and model stream (R15, R20a)', () => {
  const hi = draft({ content: [text('Hi')] })
  const rows: readonly Row[] = [
    [
      'R15/R20a: after the step hook, the outbox drains (acceptance order), then step/start, then the model',
      turning({ phase: 'step-hook', stepOpen: false }, { outbox: [C('c1'), S('s1'), C('c2')] }),
      { type: 'step-hook/done', activity: 1, step: 1 },
      ['user(c1)', 'dequeue(s1)', 'steering(s1)', 'user(c2)', 'step/start(1.1)', 'model#1(1.1)'],
      { outbox: [], activity: turn() },
    ],
    [
      'R15: an empty outbox drains nothing',
      turning({ step: 2, phase: 'step-hook', stepOpen: false }),
      { type: 'step-hook/done', activity: 1, step: 2 },
      ['step/start(1.2)', 'model#1(1.2)'],
      { activity: turn({ step: 2 }) },
    ],
    [
      'R15: a text delta is published live and folded into the draft',
      turning(),
      modelEvent({ type: 'text', text: 'Hi' }),
      [live({ type: 'agent/stream/delta', turn: 1, step: 1, kind: 'text', text: 'Hi' })],
      { activity: turn({ draft: hi }) },
    ],
    [
      'R15: consecutive text deltas merge into one block',
      turning({ draft: hi }),
      modelEvent({ type: 'text', text: ' there' }),
      ['delta( there)'],
      { activity: turn({ draft: draft({ content: [text('Hi there')] }) }) },
    ],
    [
      'R15: a reasoning delta after text opens a new block',
      turning({ draft: hi }),
      modelEvent({ type: 'reasoning', text: 'hmm' }),
      ['delta(hmm)'],
      { activity: turn({ draft: draft({ content: [text('Hi'), { type: 'reasoning', text: 'hmm' }] }) }) },
    ],
    [
      'R15: a tool call is recorded in content and calls',
      turning(),
      modelEvent({ type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' }),
      [],
      { activity: turn({ draft: draft({ content: [call('c1')], toolCalls: [call('c1')] }) }) },
    ],
    [
      'R15: finish records the reason and usage',
      turning({ draft: hi }),
      modelEvent({ type: 'finish', reason: 'stop', usage: { inputTokens: 3, outputTokens: 1 } }),
      [],
      {
        activity: turn({
          draft: draft({ content: [text('Hi')], finish: 'stop', usage: { inputTokens: 3, outputTokens: 1 } }),
        }),
      },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const aborted = { cause: { kind: 'user' }, keepInbox: false } as const
  const ignored: readonly IgnoredRow[] = [
    [
      'R15: model events after finish are ignored',
      turning({ draft: draft({ finish: 'stop' }) }),
      modelEvent({ type: 'text', text: 'late' }),
    ],
    [
      'R15: a model event of another step is ignored',
      turning({ step: 2 }),
      modelEvent({ type: 'text', text: 'x' }),
    ],
    [
      'R15: a model event of a stale activity is ignored',
      turning({ id: 2 }),
      modelEvent({ type: 'text', text: 'x' }),
    ],
    [
      'R25: model events after the abort are ignored',
      turning({ abort: aborted }),
      modelEvent({ type: 'text', text: 'x' }),
    ],
    ['R25: a model completion after the abort is ignored', turning({ abort: aborted }), complete()],
    [
      'R25: a model failure after the abort is ignored',
      turning({ abort: aborted }),
      { type: 'model/failed', activity: 1, step: 1, error: boom },
    ],
    [
      'R25: a step hook finishing after the abort is ignored',
      turning({ phase: 'step-hook', stepOpen: false, abort: aborted }),
      { type: 'step-hook/done', activity: 1, step: 1 },
    ],
    [
      'R15: a step hook done outside the step-hook phase is ignored',
      turning(),
      { type: 'step-hook/done', activity: 1, step: 1 },
    ],
    ['R15: a model completion outside the model phase is ignored', turning({ phase: 'tools' }), complete()],
    [
      'R23: a hook failure during the model phase is ignored',
      turning(),
      { type: 'hook/failed', activity: 1, step: 1, error: boom },
    ],
    [
      'R24: request-error done outside that phase is ignored',
      turning(),
      { type: 'request-error/done', activity: 1 },
    ],
    [
      'R24: request-error start outside the request-failed phase is ignored',
      turning({ phase: 'request-error', stepOpen: false, requestError: boom }),
      { type: 'request-error/start', activity: 1 },
    ],
    [
      'R24, R25: request-error start for a turn a cancel hit is ignored (the unwind closes it)',
      turning({
        phase: 'request-failed',
        stepOpen: false,
        requestError: boom,
        abort: { cause: { kind: 'user' }, keepInbox: false },
      }),
      { type: 'request-error/start', activity: 1 },
    ],
    [
      'R16: turn-stopping done outside that phase is ignored',
      turning(),
      { type: 'turn-stopping/done', activity: 1 },
    ],
  ]
  it.each(ignored)('%s', checkIgnored)
})

describe('steps: finish, tools and continuation (R15–R18, R20b, R21)', () => {
  const calls = draft({
    content: [call('c1'), call('c2', 'write')],
    toolCalls: [call('c1'), call('c2', 'write')],
    finish: 'tool-calls',
  })
  const one = draft({ content: [call('c1')], toolCalls: [call('c1')], finish: 'tool-calls' })
  const stopping = (patch: Partial<Turn> = {}) => turn({ phase: 'turn-stopping', stepOpen: false, ...patch })
  const rows: readonly Row[] = [
    [
      'R15/R16: a text-only finish writes the assistant message, closes the step and asks turnStopping',
      turning({
        draft: draft({ content: [text('Hi')], finish: 'stop', usage: { inputTokens: 1, outputTokens: 2 } }),
      }),
      complete(),
      [
        durable('assistant/message', {
          turn: 1,
          step: 1,
          content: [text('Hi')],
          usage: { inputTokens: 1, outputTokens: 2 },
        }),
        'step/end(1.1)',
        'turn-stopping#1(1.1)',
      ],
      {
        activity: stopping({
          draft: draft({ content: [text('Hi')], finish: 'stop', usage: { inputTokens: 1, outputTokens: 2 } }),
        }),
      },
    ],
    [
      'R15: a stream that completes without finish finished with stop; an empty answer is still written',
      turning(),
      complete(),
      [
        durable('assistant/message', {
          turn: 1,
          step: 1,
          content: [],
          usage: { inputTokens: 0, outputTokens: 0, estimated: true },
        }),
        'step/end(1.1)',
        'turn-stopping#1(1.1)',
      ],
      { activity: stopping() },
    ],
    [
      'R16/R20b: context drained at the end of a step does not force another step',
      turning({}, { outbox: [C('c1')] }),
      complete(),
      ['assistant()', 'user(c1)', 'step/end(1.1)', 'turn-stopping#1(1.1)'],
      { outbox: [], activity: stopping() },
    ],
    [
      'R16/R20b: steering drained at the end of a step runs another step',
      turning({}, { outbox: [S('s1'), C('c1')] }),
      complete(),
      ['assistant()', 'dequeue(s1)', 'steering(s1)', 'user(c1)', 'step/end(1.1)', 'step-hook#1(1.2)'],
      { outbox: [], activity: stepHook({ step: 2 }) },
    ],
    [
      'R15: a finish with tool calls writes the assistant message and runs the batch',
      turning({ draft: calls }),
      complete(),
      ['assistant(read())', 'tools#1(1.1,c1,c2)'],
      { activity: turn({ phase: 'tools', draft: calls }) },
    ],
    [
      'R18: tool calls of a max-tokens finish are not run, and do not continue the turn',
      turning({ draft: draft({ ...one, content: [text('Cut'), call('c1')], finish: 'max-tokens' }) }),
      complete(),
      [
        'assistant(Cut)',
        'tool/end(c1,NOT_RUN_MAX_TOKENS)',
        'tool/call(read)',
        durable('tool/result', {
          turn: 1,
          step: 1,
          result: {
            type: 'tool-result',
            toolCallId: 'c1',
            content: [text('Not run: the answer was cut off at the token limit.')],
            isError: true,
            code: 'NOT_RUN_MAX_TOKENS',
          },
        }),
        'step/end(1.1)',
        'turn-stopping#1(1.1)',
      ],
      {
        activity: stopping({
          maxTokens: true,
          draft: draft({ ...one, content: [text('Cut'), call('c1')], finish: 'max-tokens' }),
        }),
      },
    ],
    [
      'R17: a concluding tool ends the turn after its step, without turnStopping',
      turning({ phase: 'tools', draft: one }),
      result(0, 'c1', true),
      ['tool/end(c1)', 'tool/call(read)', 'tool/result(c1)', 'step/end(1.1)', ...finished],
      closed,
    ],
    [
      'R17: steering drained in a concluded step stays in this turn',
      turning({ phase: 'tools', draft: one }, { outbox: [S('s1')] }),
      result(0, 'c1', true),
      [
        'tool/end(c1)',
        'tool/call(read)',
        'tool/result(c1)',
        'dequeue(s1)',
        'steering(s1)',
        'step/end(1.1)',
        ...finished,
      ],
      { ...closed, outbox: [] },
    ],
    [
      'R16/R19: turnStopping with nothing staged closes the turn (window closed first)',
      turning({ phase: 'turn-stopping', stepOpen: false }),
      { type: 'turn-stopping/done', activity: 1 },
      [
        durable('turn/end', { turn: 1, reason: { kind: 'completed' } }),
        live({ type: 'agent/settled', turn: 1, reason: { kind: 'completed' } }),
        'checkpoint#1',
      ],
      closed,
    ],
    [
      'R16/R20c: steering staged during turnStopping runs another step',
      turning({ phase: 'turn-stopping', stepOpen: false }, { outbox: [C('c1'), S('s1')] }),
      { type: 'turn-stopping/done', activity: 1 },
      ['user(c1)', 'dequeue(s1)', 'steering(s1)', 'step-hook#1(1.2)'],
      { outbox: [], activity: stepHook({ step: 2 }) },
    ],
    [
      'R16/R20c: context alone staged during turnStopping is drained, and the turn closes',
      turning({ phase: 'turn-stopping', stepOpen: false }, { outbox: [C('c1')] }),
      { type: 'turn-stopping/done', activity: 1 },
      ['user(c1)', ...finished],
      { ...closed, outbox: [] },
    ],
    [
      'R18: a turn with a max-tokens step ends max-tokens and settles completed',
      turning({ phase: 'turn-stopping', stepOpen: false, maxTokens: true }),
      { type: 'turn-stopping/done', activity: 1 },
      ['turn/end(1,max-tokens)', 'settled(1,completed)', 'checkpoint#1'],
      closed,
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    [
      'R21: a result of another step is ignored',
      turning({ phase: 'tools', draft: calls, step: 2 }),
      result(0, 'c1'),
    ],
    [
      'R21: a result past the batch is ignored',
      turning({ phase: 'tools', draft: one, toolResults: 1 }),
      result(1, 'cx'),
    ],
    [
      'R21: a second result for a recorded call is ignored',
      turning({ phase: 'tools', draft: calls, toolResults: 1 }),
      result(0, 'c1'),
    ],
  ]
  it.each(ignored)('%s', checkIgnored)
})

describe('steps: failures (R23, R24)', () => {
  const failed = (step = 1) => ({ turn: 1, reason: { kind: 'error', step, message: 'boom' } })
  const rows: readonly Row[] = [
    [
      'R23: a throwing step hook: agent/error, turn/end error, settled error',
      turning({ step: 2, phase: 'step-hook', stepOpen: false }),
      { type: 'hook/failed', activity: 1, step: 2, error: boom },
      [
        live({ type: 'agent/error', turn: 1, step: 2, error: boom }),
        durable('turn/end', failed(2)),
        live({ type: 'agent/settled', turn: 1, reason: { kind: 'error', error: boom } }),
        'checkpoint#1',
      ],
      closed,
    ],
    [
      'R23/R20: a failed step skips the drains; leftover steering stays staged (R13c)',
      turning({ phase: 'step-hook', stepOpen: false }, { outbox: [S('s1'), C('c1')] }),
      { type: 'hook/failed', activity: 1, step: 1, error: boom },
      ['error(1.1)', 'turn/end(1,error)', 'settled(1,error)', 'checkpoint#1'],
      closed,
    ],
    [
      'R23/V1: staged context without steering is appended after turn/end',
      turning({ phase: 'step-hook', stepOpen: false }, { outbox: [C('c1')] }),
      { type: 'hook/failed', activity: 1, step: 1, error: boom },
      ['error(1.1)', 'turn/end(1,error)', 'user(c1)', 'settled(1,error)', 'checkpoint#1'],
      { ...closed, outbox: [] },
    ],
    [
      'R23: a throwing turnStopping hook fails the turn at its last step',
      turning({ step: 3, phase: 'turn-stopping', stepOpen: false }),
      { type: 'hook/failed', activity: 1, step: 3, error: boom },
      ['error(1.3)', durable('turn/end', failed(3)), 'settled(1,error)', 'checkpoint#1'],
      closed,
    ],
    [
      'R24/R20: a failed request closes the step (no drain) and runs requestError, window still open',
      turning({}, { outbox: [S('s1')] }),
      { type: 'model/failed', activity: 1, step: 1, error: boom },
      ['step/end(1.1)', effect({ kind: 'post', input: { type: 'request-error/start', activity: 1 } })],
      { activity: turn({ phase: 'request-failed', stepOpen: false, requestError: boom }) },
    ],
    [
      'R24: requestError starts from the posted continuation, after the subscribers of step/end',
      turning({ phase: 'request-failed', stepOpen: false, requestError: boom }),
      { type: 'request-error/start', activity: 1 },
      [effect({ kind: 'request-error', activity: 1, turn: 1, step: 1, error: boom })],
      { activity: turn({ phase: 'request-error', stepOpen: false, requestError: boom }) },
    ],
    [
      'R24: after requestError: agent/error, turn/end error, settled error',
      turning({ phase: 'request-error', stepOpen: false, requestError: boom }),
      { type: 'request-error/done', activity: 1 },
      ['error(1.1)', durable('turn/end', failed()), 'settled(1,error)', 'checkpoint#1'],
      closed,
    ],
    [
      'R24: with a retry pending, the failed turn closes without settled',
      turning({ phase: 'request-error', stepOpen: false, requestError: boom }, { retryPending: true }),
      { type: 'request-error/done', activity: 1 },
      ['error(1.1)', 'turn/end(1,error)', 'checkpoint#1'],
      closed,
    ],
  ]
  it.each(rows)('%s', checkRow)
})
