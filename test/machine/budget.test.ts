/**
 * Table tests of `budget.ts`: a budget passed by a request pauses the turn at the step boundary
 * or stops it (R80); `raiseBudget()` resumes it; cancel and dispose of a budget pause (R64, R80).
 */
import { describe, it } from 'vitest'
import type { Budget } from '../../src/contracts/agentOptions.js'
import type { Input } from '../../src/machine/inputs.js'
import {
  betweenTurns,
  call,
  checkFold,
  checkIgnored,
  checkRow,
  complete,
  draft,
  durable,
  type FoldRow,
  type IgnoredRow,
  live,
  type Row,
  result,
  text,
  turn,
  turning,
} from '../support/machineFixtures.js'

const usage = { inputTokens: 5, outputTokens: 5 }
/** A step whose request reported 10 tokens and asked for one call. */
const answered = draft({
  content: [text('hi'), call('c1')],
  toolCalls: [call('c1')],
  finish: 'tool-calls',
  usage,
})
const requesting = (budget: Budget) => turning({ phase: 'model', draft: answered }, { budget })

const budgetPaused = (patch: Parameters<typeof turning>[1] = {}) =>
  turning(
    { phase: 'budget-paused', stepOpen: false },
    {
      status: 'paused',
      budget: { maxRequests: 1, onExceed: 'pause' },
      usage: { totalTokens: 10, requests: 2 },
      ...patch,
    },
  )
const raise = (limits: { maxTotalTokens?: number; maxRequests?: number }): Input => ({
  type: 'raise-budget',
  limits,
})
const nextStep = { activity: turn({ step: 2, phase: 'step-hook', stepOpen: false }) }

describe('a budget passed (R80)', () => {
  const folds: readonly FoldRow[] = [
    [
      "R80: 'pause' lets the step's calls run, then pauses at the boundary: budget/pause, budget/exceeded, paused, flushed",
      requesting({ maxTotalTokens: 9, onExceed: 'pause' }),
      [complete(), result(0, 'c1')],
      [
        'assistant(hi)',
        'tools#1(1.1,c1)',
        'tool/end(c1)',
        'tool/call(read)',
        'tool/result(c1)',
        'step/end(1.1)',
        durable('budget/pause', {
          turn: 1,
          step: 1,
          usage: { totalTokens: 10, requests: 1 },
          limits: { maxTotalTokens: 9 },
        }),
        live({
          type: 'agent/budget/exceeded',
          turn: 1,
          step: 1,
          usage: { totalTokens: 10, requests: 1 },
          limits: { maxTotalTokens: 9 },
        }),
        'paused',
        'persist',
      ],
      {
        status: 'paused',
        usage: { totalTokens: 10, requests: 1 },
        activity: turn({
          phase: 'budget-paused',
          stepOpen: false,
          draft: answered,
          toolResults: 1,
          outcomes: [
            { result: { type: 'tool-result', toolCallId: 'c1', content: [text('ok')] }, concluded: false },
          ],
        }),
      },
    ],
    [
      "R80: 'stop' ends the turn after the step; its calls get NOT_RUN_BUDGET; settled completed",
      requesting({ maxTotalTokens: 9, onExceed: 'stop' }),
      [complete()],
      [
        'assistant(hi)',
        'tool/end(c1,NOT_RUN_BUDGET)',
        'tool/call(read)',
        'tool/result(c1,NOT_RUN_BUDGET)',
        'step/end(1.1)',
        durable('turn/end', { turn: 1, reason: { kind: 'budget' } }),
        'settled(1,completed)',
        'checkpoint#1',
      ],
      { window: false, usage: { totalTokens: 10, requests: 1 }, activity: betweenTurns().activity },
    ],
    [
      'R80: a limit equal to the usage is not passed: the turn goes on',
      requesting({ maxTotalTokens: 10, onExceed: 'pause' }),
      [complete(), result(0, 'c1')],
      [
        'assistant(hi)',
        'tools#1(1.1,c1)',
        'tool/end(c1)',
        'tool/call(read)',
        'tool/result(c1)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { usage: { totalTokens: 10, requests: 1 }, ...nextStep },
    ],
    [
      'R80: without a budget nothing is counted',
      turning({ phase: 'model', draft: answered }),
      [complete()],
      ['assistant(hi)', 'tools#1(1.1,c1)'],
      { activity: turn({ phase: 'tools', draft: answered }) },
    ],
    [
      'R64/R80: cancel of a budget pause ends the turn aborted',
      budgetPaused(),
      [
        { type: 'cancel', cause: { kind: 'user' }, keepInbox: false },
        { type: 'cancel/clear', cause: { kind: 'user' }, keepInbox: false },
        { type: 'unwind', activity: 1 },
      ],
      [
        'cancel(user)',
        'post cancel/clear(user)',
        'abort#1(user)',
        'schedule unwind#1',
        'stop#1',
        'running',
        'turn/end(1,aborted)',
        'settled(1,aborted)',
        'checkpoint#1',
      ],
      { status: 'running', window: false, activity: betweenTurns().activity },
    ],
    [
      'R64/R80: dispose of a budget pause writes nothing, so the session reopens paused',
      budgetPaused(),
      [{ type: 'dispose' }, { type: 'unwind', activity: 1 }],
      ['abort#1(disposed)', 'schedule unwind#1', 'stop#1', 'running', 'settled(1,aborted)', 'checkpoint#1'],
      { status: 'running', window: false, disposal: 'disposing', activity: betweenTurns().activity },
    ],
  ]
  it.each(folds)('%s', checkFold)
})

describe('raiseBudget (R80)', () => {
  const rows: readonly Row[] = [
    [
      'R80: new limits above the usage resume the turn with its next step',
      budgetPaused(),
      raise({ maxRequests: 5 }),
      ['running', 'step-hook#1(1.2)'],
      { status: 'running', budget: { maxRequests: 5, onExceed: 'pause' }, ...nextStep },
    ],
    [
      'R80: a limit raised while another is still passed keeps the pause',
      budgetPaused({ budget: { maxRequests: 1, maxTotalTokens: 5, onExceed: 'pause' } }),
      raise({ maxRequests: 5 }),
      [],
      { budget: { maxRequests: 5, maxTotalTokens: 5, onExceed: 'pause' } },
    ],
    [
      'R80: raised while the turn runs, the limits change and nothing else',
      turning({}, { budget: { maxRequests: 1, onExceed: 'pause' } }),
      raise({ maxTotalTokens: 100 }),
      [],
      { budget: { maxRequests: 1, maxTotalTokens: 100, onExceed: 'pause' } },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    [
      'R80: an agent without a budget ignores it',
      turning({ phase: 'budget-paused' }),
      raise({ maxRequests: 5 }),
    ],
    ['R29: ignored once dispose() began', budgetPaused({ disposal: 'disposing' }), raise({ maxRequests: 5 })],
  ]
  it.each(ignored)('%s', checkIgnored)
})
