/**
 * Helpers for the tool tests: a parameterless schema, the agent behind a tool context, scripted
 * tool-call replies, the recorded tool results, and the labels of a turn that runs one batch.
 */
import { z } from 'zod'
import type { Agent, SessionEvent, ToolResultBlock } from '../../src/index.js'
import type { ScriptedReply } from '../../src/testing.js'
import { answered, opening } from './labels.js'

export const noArgs = z.object({})

/** `defineTool` infers no agent type, so tools reach the agent through this. */
export const agentOf = (ctx: { readonly agent: unknown }): Agent => ctx.agent as Agent

/** A scripted reply that calls `names` (no arguments), in order. */
export const calls = (...names: string[]): ScriptedReply => ({ toolCalls: names.map((name) => ({ name })) })

/** The results of the `tool/result` events among `durable`, in order. */
export const resultsOf = (durable: readonly SessionEvent[]): ToolResultBlock[] =>
  durable.flatMap((e) => (e.type === 'tool/result' ? [e.data.result] : []))

/**
 * The labels of an idle followup `go` whose step 1 calls `names` (with `results`, by default each a
 * plain result) and whose step 2 answers `answer`.
 */
export const toolTurn = (
  names: readonly string[],
  answer = 'done',
  results?: readonly string[],
): string[] => [
  ...opening('go'),
  `assistant(${names[0]}())`,
  ...names.flatMap((name, i) => [`tool/call(${name})`, results?.[i] ?? `tool/result(call-${i + 1})`]),
  'step/end(1.1)',
  'step/start(1.2)',
  ...answered(answer, 1, 2),
  'idle',
]
