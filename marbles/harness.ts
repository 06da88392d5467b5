import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { RunHelpers } from 'rxjs/testing'
import { configure } from 'rxjs-marbles'
import { expect, onTestFinished } from 'vitest'
import type { Agent } from '../src/contracts/agent.js'
import type { PromptDecision } from '../src/contracts/hooks.js'
import type { ModelRequest } from '../src/contracts/model.js'
import {
  createTestAgent,
  expectAgentMarbles,
  type ScriptedReply,
  scriptedModel,
  type TestAgentOptions,
} from '../src/testing.js'
import { record } from '../src/timeline/record.js'

export const { marbles } = configure({
  assertDeepEqual: (actual: unknown, expected: unknown) => {
    expect(actual).toStrictEqual(expected)
  },
  frameworkMatcher: true,
  run: true,
})

type Context = Parameters<Parameters<typeof marbles>[0]>[0]

/**
 * A whole agent inside one marble scenario, made and checked with what `steerable/testing` ships
 * (`createTestAgent`, `expectAgentMarbles`), so every scenario here exercises them: the agent
 * runs on the test scheduler, and calls are driven from a hot diagram whose values are functions
 * of the agent. A string reply arrives 10 frames after its request (`createTestAgent`'s default).
 */
export const scenario = (m: Context, options: Omit<TestAgentOptions, 'scheduler'>) => {
  const agent = createTestAgent({ ...options, scheduler: m.scheduler })
  if (RECORD_INTO) keepRecord(agent, m)
  return {
    agent,
    /** Runs `calls[k](agent)` at each frame where the diagram has `k`. */
    drive: (diagram: string, calls: Record<string, (agent: Agent) => void>) => {
      m.hot(diagram, calls).subscribe((call) => call(agent))
    },
    expectEvents: (diagram: string, values: Record<string, string> = {}) =>
      expectAgentMarbles(agent, { events: diagram, values }),
    expectTranscript: (diagram: string, values: Record<string, string> = {}) =>
      expectAgentMarbles(agent, { transcript: diagram, values }),
  }
}

/**
 * With STEERABLE_RECORD_MARBLES=dir, each scenario's run is recorded on the test scheduler's clock
 * and written to dir when its test ends: the timeline test renders every one in a browser.
 */
const RECORD_INTO = process.env.STEERABLE_RECORD_MARBLES
let recorded = 0
const keepRecord = (agent: Agent, m: Context) => {
  const recording = record(agent, { now: () => m.scheduler.now() })
  const name = expect.getState().currentTestName ?? 'scenario'
  onTestFinished(() => {
    const file = join(RECORD_INTO!, `${process.pid}-${++recorded}.json`)
    writeFileSync(file, JSON.stringify({ name, record: recording.record() }))
  })
}

export type { RunHelpers }

/**
 * A model reply that asks for tool calls (`[name, arguments]`, ids `call-1` …), after the
 * script's delay (10 frames).
 */
export const callTools = (calls: readonly (readonly [string, string])[]): ScriptedReply => ({
  toolCalls: calls.map(([name, args]) => ({ name, arguments: args })),
})

/**
 * `script` as replies that also keep each request they answer, for a spec that reads what the
 * model was sent. Each reply still arrives 10 frames after its request, as in `scenario`.
 */
export const keepingRequests = (m: Context, script: readonly ScriptedReply[]) => {
  const requests: ModelRequest[] = []
  const replies = script.map((reply) => (request: ModelRequest) => {
    requests.push(request)
    return scriptedModel([reply], { scheduler: m.scheduler, delay: 10 })(request)
  })
  return { script: replies, requests }
}

/** A `promptSubmit` hook that allows after `frames` (a decision that takes time). */
export const allowAfter = (m: Context, frames: number, decision: PromptDecision = { kind: 'allow' }) =>
  m.cold(`${frames}ms (a|)`, { a: decision })

/** The interleaved live + durable timeline of the one global order, of a `scenario`'s agent. */
export const expectTimeline = (agent: Agent, diagram: string, values: Record<string, string>) =>
  expectAgentMarbles(agent, { timeline: diagram, values })
