/**
 * Table tests of `usageFold.ts`: the one fold of a session's usage (R73) that the reducer runs on
 * each event it writes and a reopened agent runs over its log, and what a budget counts of it (R80).
 */
import { describe, expect, it } from 'vitest'
import type { DurableDraft, SessionUsage } from '../../src/contracts/events.js'
import type { Usage } from '../../src/contracts/messages.js'
import { budgetUsage, foldUsage, NO_USAGE, usageOfLog } from '../../src/machine/usageFold.js'

const at = { turn: 1, step: 1 }
const stepStart: DurableDraft = { type: 'step/start', data: at }
const message = (usage?: Usage): DurableDraft => ({
  type: 'assistant/message',
  data: { ...at, content: [{ type: 'text', text: 'hi' }], ...(usage ? { usage } : {}) },
})
const stepEnd = (usage?: Usage): DurableDraft => ({
  type: 'step/end',
  data: { ...at, ...(usage ? { usage } : {}) },
})
const compaction = (usage?: Usage): DurableDraft => ({
  type: 'compaction',
  data: { upToSeq: 4, keptFromSeq: 3, summary: [{ type: 'text', text: 's' }], ...(usage ? { usage } : {}) },
})
const reported = { inputTokens: 30, outputTokens: 20, cachedInputTokens: 5 }
const estimated = { inputTokens: 7, outputTokens: 3, estimated: true as const }
const total = (patch: Partial<SessionUsage>): SessionUsage => ({ ...NO_USAGE, ...patch })

describe('usageOfLog (R73, R80)', () => {
  const rows: readonly (readonly [string, readonly DurableDraft[], SessionUsage])[] = [
    ['R73: an empty log used nothing', [], NO_USAGE],
    [
      'R73: a reported request: its tokens, cached ones included, one request, none estimated',
      [stepStart, message(reported), stepEnd()],
      total({ inputTokens: 30, outputTokens: 20, cachedInputTokens: 5, requests: 1 }),
    ],
    [
      'R73/R80: a model that reports none: the estimate counts, as an estimated request',
      [stepStart, message(estimated), stepEnd()],
      total({ inputTokens: 7, outputTokens: 3, requests: 1, estimatedRequests: 1 }),
    ],
    [
      'R73/R80: a failed request: its usage on step/end counts, reported or estimated',
      [stepStart, stepEnd(reported), stepStart, stepEnd(estimated)],
      total({ inputTokens: 37, outputTokens: 23, cachedInputTokens: 5, requests: 2, estimatedRequests: 1 }),
    ],
    [
      'R73: a request a crash cut off (no usage written) counts, as estimated, with no tokens',
      [stepStart],
      total({ requests: 1, estimatedRequests: 1 }),
    ],
    [
      "R73/R74/R80: a compaction with usage is one request of its own (the model's summary), estimated or not",
      [compaction(reported), compaction(estimated)],
      total({ inputTokens: 37, outputTokens: 23, cachedInputTokens: 5, requests: 2, estimatedRequests: 1 }),
    ],
    [
      "R74: a compaction without usage (an app's summariser) made no request of the model",
      [compaction()],
      NO_USAGE,
    ],
    [
      'R73: events that record no request change nothing',
      [
        { type: 'turn/start', data: { turn: 1, trigger: { kind: 'retry' } } },
        stepStart,
        message(),
        { type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
      ],
      total({ requests: 1, estimatedRequests: 1 }),
    ],
  ]
  it.each(rows)('%s', (_name, events, expected) => {
    expect(usageOfLog(events)).toStrictEqual(expected)
  })

  it('R73: an event that records no request returns the same total object', () => {
    const before = usageOfLog([stepStart, message(reported)])
    expect(foldUsage(before, stepEnd())).toBe(before)
  })

  it('R80: a budget counts every token, reported and estimated, and every request', () => {
    const usage = usageOfLog([
      stepStart,
      message(reported),
      stepStart,
      stepEnd(estimated),
      compaction(estimated),
    ])
    expect(budgetUsage(usage)).toStrictEqual({ totalTokens: 70, requests: 3 })
  })
})
