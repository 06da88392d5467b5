/** The durable events that change what `session.messages()` shows: compaction, rollback, fork. */
import * as z from 'zod/mini'
import { durable } from './durable.js'
import { countFromZero, messageContent, position, usage } from './leaves.js'

/**
 * R74: the messages before `keptFromSeq` (up to `upToSeq`, the log's end when it began) were
 * summarised: `session.messages()` is `summary` (a user message from `{kind: 'system'}`), then
 * the messages from `keptFromSeq` on. The events themselves stay in the log. A live
 * `agent/compaction/end` of a compaction carries the same.
 */
export const compactionShape = {
  upToSeq: countFromZero,
  keptFromSeq: position,
  summary: messageContent,
  usage: z.optional(usage),
}

export const historyEvents = [
  durable('compaction', compactionShape),
  /** R77: `session.messages()` is what it was when turn `toTurn` ended (0: before any turn). */
  durable('rollback', { toTurn: countFromZero }),
  /** R78: this session was forked from session `from` at the end of turn `atTurn`. */
  durable('fork', { from: z.string().check(z.minLength(1)), atTurn: countFromZero }),
] as const
