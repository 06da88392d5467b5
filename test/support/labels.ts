/**
 * Label sequences (as `label` from `steerable/testing` writes them) that many tests expect: the
 * opening of an idle followup's turn, the close of a turn whose last step answers or that is cancelled,
 * and one whole turn.
 */

/** The labels of an idle followup `text` up to its first step: `enqueue(text,queued)` … `step/start(1.1)`. */
export const opening = (text: string): string[] => [
  `enqueue(${text},queued)`,
  'running',
  `dequeue(${text})`,
  'turn/start(1)',
  `user(${text})`,
  'step/start(1.1)',
]

/**
 * The labels of step `turn.step` answering `answer` as the last of its turn, through `settled` (completed).
 */
export const answered = (answer: string, turn = 1, step = 1): string[] => [
  `assistant(${answer})`,
  `step/end(${turn}.${step})`,
  `turn/end(${turn},completed)`,
  `settled(${turn},completed)`,
]

/**
 * The labels of turn `turn` unwinding after a cancel during step `turn.step`: that step ends, the turn ends
 * aborted and settles.
 */
export const aborted = (turn = 1, step = 1): string[] => [
  `step/end(${turn}.${step})`,
  `turn/end(${turn},aborted)`,
  `settled(${turn},aborted)`,
]

/**
 * The labels of one idle followup `text` answered by `answer` as turn `turn` (docs/contract.md, section 10).
 */
export const oneTurn = (text: string, answer: string, turn = 1): string[] => [
  'running',
  `dequeue(${text})`,
  `turn/start(${turn})`,
  `user(${text})`,
  `step/start(${turn}.1)`,
  ...answered(answer, turn),
  'idle',
]
