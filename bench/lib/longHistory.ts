/**
 * Long sessions as durable events, the way the agent writes them: short turns of six events, and
 * a `compaction` that keeps the last turns (R74). Shared by bench/sessionOpen.ts and
 * bench/compaction.ts.
 */
import type { SessionEvent } from '../../src/index.js'

/** The six events of one short turn, as the agent writes them. */
export const turnEvents = (turn: number, seq: number): SessionEvent[] => [
  { seq, type: 'turn/start', data: { turn, trigger: { kind: 'message', source: { kind: 'user' } } } },
  {
    seq: seq + 1,
    type: 'user/message',
    data: {
      content: [{ type: 'text', text: `question number ${turn}, asked by the user` }],
      source: { kind: 'user' },
    },
  },
  { seq: seq + 2, type: 'step/start', data: { turn, step: 1 } },
  {
    seq: seq + 3,
    type: 'assistant/message',
    data: {
      turn,
      step: 1,
      content: [{ type: 'text', text: `answer number ${turn}, a short line of text from the model.` }],
      usage: { inputTokens: 12, outputTokens: 34 },
    },
  },
  { seq: seq + 4, type: 'step/end', data: { turn, step: 1 } },
  { seq: seq + 5, type: 'turn/end', data: { turn, reason: { kind: 'completed' } } },
]

/** `turns` short turns from turn `firstTurn` on, numbered from `firstSeq`. */
export const turns = (count: number, firstTurn = 1, firstSeq = 1): SessionEvent[] => {
  const events: SessionEvent[] = []
  for (let t = 0; t < count; t++) events.push(...turnEvents(firstTurn + t, firstSeq + 6 * t))
  return events
}

export const SUMMARY = 'The user asked many numbered questions and the model answered each in one line.'

/** `count` short turns and a compaction after them that keeps the last `keep` turns. */
export const compactedTurns = (count: number, keep: number): SessionEvent[] => {
  const events = turns(count)
  const upToSeq = events.length
  events.push({
    seq: upToSeq + 1,
    type: 'compaction',
    data: { upToSeq, keptFromSeq: upToSeq - 6 * keep + 1, summary: [{ type: 'text', text: SUMMARY }] },
  })
  return events
}

/**
 * A fresh session with the same messages as `compactedTurns(count, keep)`: the summary as a user
 * message with a system source, then the kept turns (same turn numbers, seqs from 2).
 */
export const tailOnly = (count: number, keep: number): SessionEvent[] => [
  {
    seq: 1,
    type: 'user/message',
    data: { content: [{ type: 'text', text: SUMMARY }], source: { kind: 'system' } },
  },
  ...turns(keep, count - keep + 1, 2),
]
