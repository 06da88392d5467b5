import type { TestScheduler } from 'rxjs/testing'
import type { Agent } from '../contracts/agent.js'
import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import { label } from '../testing/label.js'
import { toMarbles } from '../timeline/toMarbles.js'
import { type AgentMarblesOptions, laneOf, type MarbleLane, shownRecord } from './agentMarbles.js'
import { type DiagramValue, parseDiagram } from './parseDiagram.js'
import { relettered } from './reletter.js'
import { firstDifference, meaning, sideBySide } from './sideBySide.js'
import { testAgentRecord } from './testAgents.js'

/**
 * The expected diagrams of an agent, as `m.expect(…).toBeObservable(diagram, values)` takes them:
 * one diagram per lane to pin (`events`: live, `transcript`: durable, `timeline`: both in their
 * one order; at least one), and one legend from letters to the labels of `label`.
 */
export type ExpectedAgentMarbles = AgentMarblesOptions & {
  readonly events?: string
  readonly transcript?: string
  readonly timeline?: string
  readonly values?: Readonly<Record<string, string>>
}

const CALL = 'expectAgentMarbles()'
const LANES: readonly MarbleLane[] = ['events', 'transcript', 'timeline']

/**
 * Expects the events of an agent made by `createTestAgent` to be the diagrams of `expected`.
 * Call it inside `scheduler.run(…)` (an rxjs-marbles `marbles(m => …)` runs there); the check
 * waits until the scheduler has nothing left to run, then compares value by value, at the frames
 * the actual diagram draws them (what `agentMarbles` drew for the same run passes). A difference
 * fails the run with an `Error` that prints both diagrams side by side with their legends,
 * expected on the left, and names the first value that differs. It needs no test framework.
 *
 * @example
 * expectAgentMarbles(agent, { events: '-(erd) 9ms (xi)', values: { e: 'enqueue(hi,queued)', … } })
 */
export const expectAgentMarbles = (agent: Agent, expected: ExpectedAgentMarbles): void => {
  const { scheduler } = testAgentRecord(CALL, agent)
  const { issues, lanes } = readExpected(expected)
  if (!(scheduler as unknown as { runMode?: boolean }).runMode)
    issues.push({
      path: ['agent'],
      message: 'its scheduler is not running: call inside scheduler.run(…) (rxjs-marbles: marbles(m => …))',
    })
  if (issues.length > 0) throw new InvalidInputError(CALL, issues)
  whenAllRan(scheduler, () =>
    lanes.flatMap(({ lane, diagram, parsed }) => {
      const failure = compare(agent, expected, lane, diagram, parsed)
      return failure ? [failure] : []
    }),
  )
}

const readExpected = (expected: ExpectedAgentMarbles) => {
  const issues: InputIssue[] = []
  const lanes: { lane: MarbleLane; diagram: string; parsed: DiagramValue[] }[] = []
  if (typeof expected !== 'object' || expected === null) {
    issues.push({ path: ['expected'], message: 'expected {events?, transcript?, timeline?, values?}' })
    return { issues, lanes }
  }
  const values = expected.values ?? {}
  if (typeof values !== 'object' || values === null)
    issues.push({ path: ['expected', 'values'], message: 'expected an object from letters to labels' })
  for (const lane of LANES) {
    const diagram = expected[lane]
    if (diagram === undefined) continue
    if (typeof diagram !== 'string') {
      issues.push({ path: ['expected', lane], message: 'expected a marble diagram (a string)' })
      continue
    }
    try {
      lanes.push({ lane, diagram, parsed: parseDiagram(diagram) })
    } catch (error) {
      issues.push({ path: ['expected', lane], message: (error as Error).message })
    }
  }
  if (lanes.length === 0 && issues.length === 0)
    issues.push({ path: ['expected'], message: 'expected at least one of events, transcript or timeline' })
  return { issues, lanes }
}

/** The checks waiting for each scheduler to finish its run, and the action that will run them. */
const waiting = new WeakMap<TestScheduler, { checks: (() => string[])[]; step: unknown }>()

/**
 * Runs `check` once the scheduler has nothing left to run (within its `maxFrames`), by waiting
 * behind the last action queued, again and again as the run queues more. One waiter per scheduler
 * runs every check of it: two would each see the other queued, and wait behind it forever. A
 * waiter no longer queued (its run failed first) is replaced, so a later run is still checked.
 */
const whenAllRan = (scheduler: TestScheduler, check: () => string[]) => {
  const queued = waiting.get(scheduler)
  if (queued && (scheduler.actions as unknown[]).includes(queued.step)) return void queued.checks.push(check)
  const entry = { checks: [check], step: undefined as unknown }
  waiting.set(scheduler, entry)
  const step = () => {
    const last = Math.max(
      ...scheduler.actions.map((action) => action.delay).filter((d) => d <= scheduler.maxFrames),
    )
    if (last !== -Infinity) {
      entry.step = scheduler.schedule(step, last - scheduler.now())
      return
    }
    waiting.delete(scheduler)
    const failures = entry.checks.flatMap((run) => run())
    if (failures.length > 0) throw new Error(`${CALL}: ${failures.join('\n\n')}`)
  }
  entry.step = scheduler.schedule(step, 0)
}

/**
 * `undefined` when the lane went as expected, else what to print. Frames are compared as the
 * actual diagram draws them: a group `(abc)` takes one frame per character, so a value that came
 * sooner after it is drawn later, and an expected diagram (which is marble syntax too) can only
 * say where it is drawn. So what `agentMarbles` drew for a run passes as the expected diagram of
 * the same run, and a value drawn elsewhere still fails.
 */
const compare = (
  agent: Agent,
  expected: ExpectedAgentMarbles,
  lane: MarbleLane,
  diagram: string,
  parsed: readonly DiagramValue[],
): string | undefined => {
  const record = laneOf(shownRecord(agent, expected, CALL), lane)
  const start = record.startedAt ?? 0
  const values = expected.values ?? {}
  const drawn = relettered(toMarbles(record, { time: 'frames' }), values)
  const redrawn = parseDiagram(drawn.diagram)
  const came = record.entries.map((e) => ({
    frame: (e.t ?? 0) - start,
    label: e.stream === 'journal' ? e.event.op : label(e.event),
  }))
  const actual = came.map((value, i) => ({ frame: redrawn[i]?.frame ?? value.frame, label: value.label }))
  const wanted = parsed.map((v) => ({ frame: v.frame, label: meaning(values, v.letter) }))
  const same =
    wanted.length === actual.length &&
    wanted.every((w, i) => w.frame === actual[i]?.frame && w.label === actual[i]?.label)
  if (same) return undefined
  return (
    `the agent's ${lane} lane is not the expected one (first difference: ${firstDifference(wanted, actual)})\n` +
    sideBySide(
      { diagram, values, parsed },
      { diagram: drawn.diagram, values: drawn.values, parsed: redrawn },
    ) +
    notDrawable(came, redrawn)
  )
}

/**
 * A group `(abc)` takes one frame per character, so a value that came sooner after it than that
 * cannot be drawn where it was: the diagram shows it later. Said, so that a reader who counts the
 * frames of the run is not puzzled by the frames of the drawing, which are the ones compared.
 */
const notDrawable = (actual: readonly { frame: number; label: string }[], drawn: readonly DiagramValue[]) => {
  const i = actual.findIndex((value, k) => value.frame !== drawn[k]?.frame)
  const value = actual[i]
  if (!value) return ''
  return (
    `\n  note: ${value.label} came at frame ${value.frame}, which marble syntax cannot draw after the ` +
    `group before it (a group takes one frame per character): the actual diagram shows it at frame ${drawn[i]?.frame}`
  )
}
