/**
 * Table tests of `budget.ts`: a budget passed by a request pauses the turn at the step boundary
 * or stops it (R80); a budget spent lets no request start, a turn's first included, nor a
 * compaction by the agent's model; `raiseBudget()` resumes a pause; cancel and dispose of a budget
 * pause (R64, R80).
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
  claiming,
  complete,
  deciding,
  draft,
  durable,
  type FoldRow,
  type IgnoredRow,
  idle,
  live,
  type Row,
  result,
  text,
  turn,
  turning,
} from '../support/machineFixtures.js'

/** `agent.usage` with `tokens` split in halves, after `requests` requests, none estimated. */
const used = (tokens: number, requests: number) => ({
  inputTokens: tokens / 2,
  outputTokens: tokens / 2,
  cachedInputTokens: 0,
  requests,
  estimatedRequests: 0,
})
/** Step 1's request is open: counted by its `step/start`, estimated until its usage comes. */
const oneOpen = { ...used(0, 1), estimatedRequests: 1 }

const usage = { inputTokens: 5, outputTokens: 5 }
/** A step whose request reported 10 tokens and asked for one call. */
const answered = draft({
  content: [text('hi'), call('c1')],
  toolCalls: [call('c1')],
  finish: 'tool-calls',
  usage,
})
const requesting = (budget: Budget, d = answered) =>
  turning({ phase: 'model', draft: d }, { budget, usage: oneOpen })

const budgetPaused = (patch: Parameters<typeof turning>[1] = {}) =>
  turning(
    { phase: 'budget-paused', stepOpen: false },
    {
      status: 'paused',
      budget: { maxRequests: 1, onExceed: 'pause' },
      usage: used(10, 2),
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
        usage: used(10, 1),
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
      { window: false, usage: used(10, 1), activity: betweenTurns().activity },
    ],
    [
      'R80: a limit equal to the usage is not passed, so the calls run; but it is reached, so no next request starts',
      requesting({ maxTotalTokens: 10, onExceed: 'pause' }),
      [complete(), result(0, 'c1')],
      [
        'assistant(hi)',
        'tools#1(1.1,c1)',
        'tool/end(c1)',
        'tool/call(read)',
        'tool/result(c1)',
        'step/end(1.1)',
        'budget/pause(1.1)',
        'budget/exceeded(1.1)',
        'paused',
        'persist',
      ],
      {
        status: 'paused',
        usage: used(10, 1),
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
      "R80: maxRequests 1 with 'stop': the calls of the one request run, then the turn ends before the second",
      requesting({ maxRequests: 1, onExceed: 'stop' }),
      [complete(), result(0, 'c1')],
      [
        'assistant(hi)',
        'tools#1(1.1,c1)',
        'tool/end(c1)',
        'tool/call(read)',
        'tool/result(c1)',
        'step/end(1.1)',
        durable('turn/end', { turn: 1, reason: { kind: 'budget' } }),
        'settled(1,completed)',
        'checkpoint#1',
      ],
      { window: false, usage: used(10, 1), activity: betweenTurns().activity },
    ],
    [
      'R73/R80: a model that reports no usage counts its estimate: 40 characters and a 96-token prompt pass 100',
      requesting(
        { maxTotalTokens: 100, onExceed: 'stop' },
        draft({ content: [text('x'.repeat(40))], finish: 'stop', inputEstimate: 96 }),
      ),
      [complete()],
      [
        'assistant(xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx)',
        'step/end(1.1)',
        durable('turn/end', { turn: 1, reason: { kind: 'budget' } }),
        'settled(1,completed)',
        'checkpoint#1',
      ],
      {
        window: false,
        usage: { inputTokens: 96, outputTokens: 10, cachedInputTokens: 0, requests: 1, estimatedRequests: 1 },
        activity: betweenTurns().activity,
      },
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

/** A prompt being admitted while `usage` has reached the budget's one request. */
const admitting = (onExceed: Budget['onExceed']) =>
  claiming(deciding(), { budget: { maxRequests: 1, onExceed }, usage: used(10, 1) })
const allowed: Input = { type: 'admission/allowed', activity: 1, admission: { additionalContexts: [] } }
const byModel = { ref: 0, keepLastTurns: 1, byModel: true } as const

describe('no request once the budget is spent (R80)', () => {
  const rows: readonly Row[] = [
    [
      "R80: 'pause': a turn admitted with the budget spent writes its start and pauses before its first request, at step 0",
      admitting('pause'),
      allowed,
      ['turn/start(1)', 'user(m1)', 'budget/pause(1.0)', 'budget/exceeded(1.0)', 'paused', 'persist'],
      {
        status: 'paused',
        lastTurn: 1,
        activity: turn({ step: 0, phase: 'budget-paused', stepOpen: false }),
      },
    ],
    [
      "R80: 'stop': a turn admitted with the budget spent ends budget before its first request",
      admitting('stop'),
      allowed,
      [
        'turn/start(1)',
        'user(m1)',
        durable('turn/end', { turn: 1, reason: { kind: 'budget' } }),
        'settled(1,completed)',
        'checkpoint#1',
      ],
      { lastTurn: 1, window: false, activity: betweenTurns().activity },
    ],
    [
      'R80: raiseBudget() of a pause before the first request starts step 1',
      budgetPaused({ activity: turn({ step: 0, phase: 'budget-paused', stepOpen: false }) }),
      raise({ maxRequests: 5 }),
      ['running', 'step-hook#1(1.1)'],
      {
        status: 'running',
        budget: { maxRequests: 5, onExceed: 'pause' },
        activity: turn({ step: 1, phase: 'step-hook', stepOpen: false }),
      },
    ],
    [
      "R74/R80: a compaction by the agent's model with the budget spent makes no request: skipped, reason budget",
      idle({ lastTurn: 1, budget: { maxTotalTokens: 10, onExceed: 'pause' }, usage: used(10, 1) }),
      { type: 'compact', ...byModel },
      [
        'running',
        'compaction/start',
        live({ type: 'agent/compaction/end', turn: 1, result: { kind: 'skipped', reason: 'budget' } }),
        'checkpoint#1',
      ],
      { status: 'running', nextActivity: 2, activity: { kind: 'between', id: 1, checkpointed: false } },
    ],
    [
      "R74/R80: an app's summariser is no request of the model: it runs with the budget spent",
      idle({ lastTurn: 1, budget: { maxTotalTokens: 10, onExceed: 'pause' }, usage: used(10, 1) }),
      { type: 'compact', ref: 3, keepLastTurns: 1 },
      ['running', 'compaction/start', 'summarize#1(keep 1)'],
      {
        status: 'running',
        window: true,
        nextActivity: 2,
        activity: { kind: 'compaction', id: 1, order: { ref: 3, keepLastTurns: 1 } },
      },
    ],
  ]
  it.each(rows)('%s', checkRow)
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
