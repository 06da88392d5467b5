/** Table tests of `requestRetry.ts`: a failed request made again after a delay (R117). */
import { describe, expect, it } from 'vitest'
import type { Turn } from '../../src/machine/activity.js'
import type { Input, RetryHint } from '../../src/machine/inputs.js'
import { retryDelay } from '../../src/machine/requestRetry.js'
import { NO_USAGE } from '../../src/machine/usageFold.js'
import {
  between,
  boom,
  checkIgnored,
  checkRow,
  draft,
  effect,
  type IgnoredRow,
  live,
  type Row,
  text,
  turn,
  turning,
} from '../support/machineFixtures.js'

const failed = (retry?: RetryHint): Input =>
  retry === undefined
    ? { type: 'model/failed', activity: 1, step: 1, error: boom }
    : { type: 'model/failed', activity: 1, step: 1, error: boom, retry }
const MIDDLE: RetryHint = { jitter: 0.5 } // no jitter: exactly 1 s, 2 s, 4 s …
const again: Input = { type: 'request/retry', activity: 1, step: 1 }
const timer = (ms: number) =>
  effect({ kind: 'timer', activity: 1, ms, input: { type: 'request/retry', activity: 1, step: 1 } })
const retryEvent = (attempt: number, delayMs: number) =>
  live({ type: 'agent/request/retry', turn: 1, step: 1, attempt, delayMs, error: boom })
const requestFails = ['step/end(1.1)', 'post request-error/start#1']
const failing = (patch: Partial<Turn> = {}) => ({
  activity: turn({ phase: 'request-failed', stepOpen: false, requestError: boom, ...patch }),
})
const waiting = (retries: number) => ({ activity: turn({ phase: 'retry-wait', retries }) })
const aborted = { cause: { kind: 'user' }, keepInbox: false } as const
const RETRIES = { maxRetries: 2 } as const

describe('R117: a retryable request failure is made again after a delay', () => {
  const rows: Row[] = [
    [
      'R117: a retryable failure with retries left waits 1 s, the step still open, then retries',
      turning({}, RETRIES),
      failed(MIDDLE),
      [retryEvent(1, 1000), timer(1000)],
      waiting(1),
    ],
    [
      'R117: the second retry waits twice as long',
      turning({ retries: 1 }, RETRIES),
      failed(MIDDLE),
      [retryEvent(2, 2000), timer(2000)],
      waiting(2),
    ],
    [
      'R117: the error’s retryAfterMs is the delay',
      turning({}, RETRIES),
      failed({ afterMs: 5000, jitter: 0 }),
      [retryEvent(1, 5000), timer(5000)],
      waiting(1),
    ],
    [
      'R117: the streamed draft of the failed attempt is dropped before the retry',
      turning({ draft: draft({ usage: { inputTokens: 3, outputTokens: 0 } }) }, RETRIES),
      failed(MIDDLE),
      [retryEvent(1, 1000), timer(1000)],
      waiting(1),
    ],
    [
      'R117/R24: after the last retry the request fails, and requestError runs',
      turning({ retries: 2 }, RETRIES),
      failed(MIDDLE),
      requestFails,
      failing({ retries: 2 }),
    ],
    [
      'R117/R24: a failure after the first streamed event is not retried',
      turning({ draft: draft({ content: [text('Hel')] }) }, RETRIES),
      failed(MIDDLE),
      requestFails,
      failing({ draft: draft({ content: [text('Hel')] }) }),
    ],
    [
      'R117/R24: an error that is not retryable fails the request at once',
      turning({}, RETRIES),
      failed(),
      requestFails,
      failing(),
    ],
    [
      'R117/R24: with maxRetries 0 nothing is retried',
      turning({}, { maxRetries: 0 }),
      failed(MIDDLE),
      requestFails,
      failing(),
    ],
    [
      'R117/R80: a request the budget has no room for is not retried',
      turning(
        {},
        {
          ...RETRIES,
          budget: { maxRequests: 1, onExceed: 'stop' },
          usage: { ...NO_USAGE, requests: 1, estimatedRequests: 1 },
        },
      ),
      failed(MIDDLE),
      requestFails,
      failing(),
    ],
    [
      'R117: when the delay is over, the step’s request is made again',
      turning({ phase: 'retry-wait', retries: 1 }, RETRIES),
      again,
      ['model#1(1.1)'],
      { activity: turn({ retries: 1 }) },
    ],
    [
      'R117/R25: cancel() during the delay ends the turn aborted, its step closed',
      turning({ phase: 'retry-wait', retries: 1, abort: aborted }, RETRIES),
      { type: 'unwind', activity: 1 },
      ['stop#1', 'step/end(1.1)', 'turn/end(1,aborted)', 'settled(1,aborted)', 'checkpoint#1'],
      { window: false, activity: between() },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: IgnoredRow[] = [
    ['R117: a retry outside the delay is ignored', turning({}, RETRIES), again],
    [
      'R117/R25: a retry after a cancel is ignored',
      turning({ phase: 'retry-wait', retries: 1, abort: aborted }, RETRIES),
      again,
    ],
    [
      'R117: a retry for another step is ignored',
      turning({ phase: 'retry-wait', retries: 1 }, RETRIES),
      { type: 'request/retry', activity: 1, step: 2 },
    ],
  ]
  it.each(ignored)('%s', checkIgnored)
})

describe('R117: retry delays', () => {
  it('R117: 1 s, 2 s, 4 s … moved by at most ±20%, never more than 30 s', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, MIDDLE))).toStrictEqual([1000, 2000, 4000, 8000])
    expect(retryDelay(1, { jitter: 0 })).toBe(800)
    expect(retryDelay(1, { jitter: 0.999_999 })).toBe(1200)
    expect(retryDelay(3, { jitter: 0 })).toBe(3200)
    expect(retryDelay(6, MIDDLE)).toBe(30_000)
    expect(retryDelay(1, { afterMs: 120_000, jitter: 0.5 })).toBe(30_000)
    expect(retryDelay(1, { afterMs: 0, jitter: 0.5 })).toBe(0)
  })
})
