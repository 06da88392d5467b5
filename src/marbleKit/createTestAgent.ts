import type { TestScheduler } from 'rxjs/testing'
import { createAgent } from '../agent/createAgent.js'
import type { Agent } from '../contracts/agent.js'
import type { AgentOptions } from '../contracts/agentOptions.js'
import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import { type ScriptedReply, scriptedModel } from '../testing/scriptedModel.js'
import { record } from '../timeline/record.js'
import { keepTestAgent } from './testAgents.js'

/** What `createTestAgent` takes: the options of `createAgent`, with a script in place of a model. */
export type TestAgentOptions = Omit<AgentOptions, 'model' | 'scheduler'> & {
  /** The model's replies, one per request, in order (see `scriptedModel`). */
  readonly script: readonly ScriptedReply[]
  /** The spec's scheduler: `new TestScheduler(…)`, or `m.scheduler` of rxjs-marbles. */
  readonly scheduler: TestScheduler
  /**
   * Frames between a request and its reply, for the replies that give no `delay` of their own;
   * default 10, so a diagram shows the request and the reply apart and a steer can land between.
   * Observables (a marble `cold(…)`) and functions keep their own timing.
   */
  readonly delay?: number
}

const CALL = 'createTestAgent()'
const DEFAULT_DELAY = 10

/**
 * An agent on a scripted model whose delays are virtual: it runs on the spec's `TestScheduler`,
 * and each reply arrives `delay` frames after its request. Call it inside `scheduler.run(…)` (or
 * an rxjs-marbles `marbles(m => …)`), then pin its events with `expectAgentMarbles`.
 *
 * @example
 * const agent = createTestAgent({ script: ['Hello.'], scheduler })
 */
export const createTestAgent = (options: TestAgentOptions): Agent => {
  const issues = optionIssues(options)
  if (issues.length > 0) throw new InvalidInputError(CALL, issues)
  const { script, delay = DEFAULT_DELAY, scheduler, ...agentOptions } = options
  const model = scriptedModel(script, { scheduler, delay })
  const agent = createAgent({ ...agentOptions, model, scheduler })
  const fromSeq = agent.session.events.at(-1)?.seq ?? 0
  // Deltas are recorded too: whether a diagram shows them is the reader's choice, made later.
  const recording = record(agent, { now: () => scheduler.now(), deltas: true })
  keepTestAgent(agent, { scheduler, recording, fromSeq })
  return agent
}

const isFrames = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n >= 0

const optionIssues = (options: TestAgentOptions): InputIssue[] => {
  if (typeof options !== 'object' || options === null)
    return [{ path: ['options'], message: 'expected an object: {script, scheduler, …createAgent options}' }]
  const issues: InputIssue[] = []
  if ('model' in options)
    issues.push({
      path: ['options', 'model'],
      message: 'createTestAgent makes the model from options.script; pass script instead of model',
    })
  const scheduler = options.scheduler as Partial<TestScheduler> | undefined
  if (typeof scheduler?.run !== 'function' || !Array.isArray(scheduler.actions))
    issues.push({
      path: ['options', 'scheduler'],
      message: "expected the spec's TestScheduler (new TestScheduler(…) from rxjs/testing, or m.scheduler)",
    })
  if (options.delay !== undefined && !isFrames(options.delay))
    issues.push({ path: ['options', 'delay'], message: 'expected a number of frames, 0 or more' })
  if (!Array.isArray(options.script)) {
    issues.push({
      path: ['options', 'script'],
      message:
        'expected an array of replies: strings, {text …}, {hang: true}, {error}, Observables or functions',
    })
    return issues
  }
  options.script.forEach((reply: unknown, i) => {
    const path = ['options', 'script', i]
    if (typeof reply === 'string' || typeof reply === 'function') return
    if (typeof reply !== 'object' || reply === null)
      issues.push({ path, message: 'expected a string, an object, an Observable or a function' })
    else if ('delay' in reply && !isFrames(reply.delay))
      issues.push({ path: [...path, 'delay'], message: 'expected a number of frames, 0 or more' })
  })
  return issues
}
