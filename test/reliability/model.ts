/**
 * The reliability property: a random schedule over the whole public surface runs on
 * virtual time against a fresh agent, and every run must keep the contract's invariants:
 *
 * - R30 (amended) / V8: `inboxConservation()` from creation, nothing outstanding after
 *   `dispose()`, every enqueue matched by exactly one later dequeue or discard of its id, an id
 *   enqueued again only through a promote or an interrupted admission's return (an inject: on
 *   exactly one `user/message`, unless withdrawn); R3–R5 routing of top-level calls.
 * - R41: after each top-level step `agent.inbox` is the fold of the events (fold.ts): claims,
 *   drains and discards take its heads; parked-ness and staged context as the schedule made them.
 * - R42: every id's `outcome()` settles once and agrees with the events and the transcript.
 * - R43–R46: what a top-level remove, replace, move or promote publishes, exactly; every such
 *   event answers a call.
 * - R47–R49: each send's refusal (or not) as predicted at its call, leaving no trace; guarded
 *   steering lands only in its turn, else expires.
 * - R31 / R9: `statusAlternation()`; idle only with nothing waking, never inside a turn.
 * - Turns and steps balanced and numbered; only contexts between turns; `settled` once per chain.
 * - R7 / R12 / R13: one ordinary prompt per turn, the claimed one, written in the R12 order.
 * - R15–R18, R21b, R23–R25: each step's answer, tool result codes, conclusion, continuation.
 * - V1: injected and tool-produced context is never lost.
 * - R68: a cut step has no tool call and keeps a prefix of the streamed text; a top-level
 *   interrupting steer cuts exactly when the step it meets streams; no delta after the cut.
 * - R15 / R71 / R72: every `tool/call` has exactly one `tool/result` (and one `agent/tool/end`
 *   before it); `cancelToolCall` of an unknown or settled call is `false` and changes nothing, and
 *   at top level it cancels exactly the calls the logs show open.
 * - R28: no liveness gap (a running agent at rest waits on something that hangs), an idle agent
 *   is quiescent, and every `whenIdle()` resolves before the final `dispose()`.
 * - R6 / R13b / R19 / R24–R27: what top-level calls and subscribers of turn/end, settled, idle
 *   and cancel-requested may and may not change; V2 after `dispose()`.
 * - R37: the transcript replays (`createAgent({history})`) into identical `session.messages()`.
 * - R38 / R74 / R77: `session.messages()` equals the reference projection (referenceMessages.ts),
 *   written from the contract apart from the library's fold.
 * - R74–R77 (history schedules, history/): compaction phases, what the summariser was given,
 *   `compact()` results, rollbacks accepted or refused, automatic compaction.
 * - R73 / R80 (history schedules with a budget): no request once a limit is reached, pauses and
 *   budget ends only then, `agent.usage` the fold of the log, and the same after a reopen at any
 *   event (history/checkBudget.ts).
 *
 * A failure throws with the problems and the labelled timeline; fast-check prints the shrunk
 * schedule as a script (`Schedule[fc.toStringMethod]`). The schedules in regressions.ts run as tests of
 * their own (test/reliability/reliability.test.ts) and first in the soak.
 */
import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { type AgentMessageId, createAgent, InvalidInputError } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { scheduleArb } from './arbitrary.js'
import { checkControl } from './checkControl.js'
import { checkCuts } from './checkCuts.js'
import { checkGuards } from './checkGuards.js'
import { checkInbox } from './checkInbox.js'
import { type Asked, checkOutcomes } from './checkOutcomes.js'
import { checkPrompts } from './checkPrompts.js'
import { checkRefusals } from './checkRefusals.js'
import { checkSteps } from './checkSteps.js'
import { checkToolCalls } from './checkToolCalls.js'
import { checkTurns } from './checkTurns.js'
import { checkBudget } from './history/checkBudget.js'
import { checkAutoCompaction, checkCompactCalls, checkRollbacks } from './history/checkCalls.js'
import { checkCompactions } from './history/checkCompactions.js'
import { describeError } from './log.js'
import { referenceMessages } from './referenceMessages.js'
import { runSchedule } from './run.js'
import type { Schedule } from './schedule.js'

const UNKNOWN_ID = '01ARZ3NDEKTSV4RRFFQ69G5FAV' as AgentMessageId

/** Runs one schedule and returns every broken invariant (empty when the run is fine). */
export const problemsOf = async (schedule: Schedule): Promise<{ problems: string[]; timeline: string }> => {
  const { agent, log, fold, show } = await runSchedule(schedule)
  // R42: every id asked once more after dispose(), and an id this agent never returned.
  const late = new Map<string, Asked>()
  for (const id of log.sent.keys()) {
    const asked: Asked = {}
    late.set(id, asked)
    agent.outcome(id as Parameters<typeof agent.outcome>[0]).then(
      (o) => {
        asked.settled = o
      },
      (e: unknown) => {
        asked.rejected = e
      },
    )
  }
  let unknown: unknown
  agent.outcome(UNKNOWN_ID).catch((e: unknown) => {
    unknown = e
  })
  await new Promise<void>((resolve) => setImmediate(resolve))
  const problems = [
    ...log.problems,
    ...fold.problems,
    ...checkInbox(log),
    ...checkTurns(log),
    ...checkPrompts(log, schedule),
    ...checkSteps(log.durable, schedule),
    ...checkRefusals(log, schedule.plan.maxQueued),
    ...checkOutcomes(log, late),
    ...checkControl(log),
    ...checkGuards(log),
    ...checkToolCalls(log),
    ...checkCuts(log),
    ...checkCompactions(log),
    ...checkCompactCalls(log),
    ...checkRollbacks(log),
    ...checkAutoCompaction(log, schedule.plan.autoCompaction),
    ...checkBudget(log, schedule.plan.budget, agent),
  ]
  if (!(unknown instanceof InvalidInputError))
    problems.push(`R42: outcome() of an id never returned settled with ${describeError(unknown)}`)
  const events = agent.session.events
  if (!isDeepStrictEqual(events, log.durable)) problems.push('transcript$ differs from session.events')
  // R35, R37: what a store writes (JSON) reads back as the same events, whatever was thrown.
  try {
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(events)), events))
      problems.push('R35: the transcript does not survive a JSON round trip')
  } catch (error) {
    problems.push(`R35: the transcript cannot be written as JSON: ${describeError(error)}`)
  }
  // R38, R74, R77: the messages as the contract states them, folded independently of the library.
  if (!isDeepStrictEqual(agent.session.messages(), referenceMessages(events)))
    problems.push(
      `R38/R74/R77: session.messages() ${JSON.stringify(agent.session.messages())} differs from the reference ${JSON.stringify(referenceMessages(events))}`,
    )
  const replay = createAgent({ model: scriptedModel([]), history: events })
  if (!isDeepStrictEqual(replay.session.messages(), agent.session.messages()))
    problems.push('R37/R38: the transcript does not replay into the same session.messages()')
  if (!isDeepStrictEqual(replay.session.events, events)) problems.push('R37: replayed events differ')
  return { problems, timeline: problems.length > 0 ? show() : '' }
}

/** Runs one schedule; throws with the broken invariants and the labelled timeline. */
export const checkSchedule = async (schedule: Schedule): Promise<void> => {
  const { problems, timeline } = await problemsOf(schedule)
  if (problems.length > 0)
    throw new Error(
      `${problems.length} broken invariant(s):\n- ${problems.join('\n- ')}\ntimeline:\n${timeline}`,
    )
}

export const reliabilityProperty = (): fc.IAsyncPropertyWithHooks<[Schedule]> =>
  fc.asyncProperty(scheduleArb, checkSchedule)

/** fast-check parameters: `numRuns` random schedules (the regressions run as their own tests). */
export const reliabilityParameters = (numRuns: number, seed?: number): fc.Parameters<[Schedule]> => ({
  numRuns,
  ...(seed !== undefined ? { seed } : {}),
})

/** `fc.assert` of the property; resolves with the number of random runs that passed. */
export const assertReliability = async (numRuns: number, seed?: number): Promise<number> => {
  await fc.assert(reliabilityProperty(), reliabilityParameters(numRuns, seed))
  return numRuns
}
