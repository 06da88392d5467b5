import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { RunHelpers } from 'rxjs/testing'
import { configure } from 'rxjs-marbles'
import { expect, onTestFinished } from 'vitest'
import { createAgent } from '../src/agent/createAgent.js'
import type { Agent } from '../src/contracts/agent.js'
import type { AgentOptions } from '../src/contracts/agentOptions.js'
import type { PromptDecision } from '../src/contracts/hooks.js'
import type { ModelEvent } from '../src/contracts/model.js'
import { labelled } from '../src/testing/label.js'
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
 * A whole agent inside one marble scenario: the agent runs on the test scheduler, and calls are
 * driven from a hot diagram whose values are functions of the agent.
 */
export const scenario = (m: Context, options: Omit<AgentOptions, 'scheduler'>) => {
  const agent = createAgent({ ...options, scheduler: m.scheduler })
  if (RECORD_INTO) keepRecord(agent, m)
  const streams = labelled(agent)
  return {
    agent,
    /** Runs `calls[k](agent)` at each frame where the diagram has `k`. */
    drive: (diagram: string, calls: Record<string, (agent: Agent) => void>) => {
      m.hot(diagram, calls).subscribe((call) => call(agent))
    },
    expectEvents: (diagram: string, values: Record<string, string> = {}) =>
      m.expect(streams.events$).toBeObservable(diagram, values),
    expectTranscript: (diagram: string, values: Record<string, string> = {}) =>
      m.expect(streams.transcript$).toBeObservable(diagram, values),
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

/** A model reply that streams `text` in one delta and finishes, `frames` after the request. */
export const reply = (m: Context, text: string, frames = 10) =>
  m.cold(`${frames}ms (af|)`, {
    a: { type: 'text' as const, text },
    f: { type: 'finish' as const, reason: 'stop' as const },
  })

/**
 * A model reply that asks for tool calls (`[name, arguments]`, ids `call-1` …),
 * 10 frames after the request.
 */
export const callTools = (m: Context, calls: readonly (readonly [string, string])[]) => {
  const values: Record<string, ModelEvent> = { f: { type: 'finish', reason: 'tool-calls' } }
  const letters = calls.map(([name, args], i) => {
    const letter = 'abcde'[i] as string
    values[letter] = { type: 'tool-call', id: `call-${i + 1}`, name, arguments: args }
    return letter
  })
  return m.cold(`10ms (${letters.join('')}f|)`, values)
}

/** A `promptSubmit` hook that allows after `frames` (a decision that takes time). */
export const allowAfter = (m: Context, frames: number, decision: PromptDecision = { kind: 'allow' }) =>
  m.cold(`${frames}ms (a|)`, { a: decision })

/** Like `scenario`, plus the interleaved live + durable timeline of the one global order. */
export const expectTimeline = (m: Context, agent: Agent, diagram: string, values: Record<string, string>) =>
  m.expect(labelled(agent).timeline$).toBeObservable(diagram, values)
