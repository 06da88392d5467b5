import type { Agent } from '../contracts/agent.js'
import { type Marbles, toMarbles } from '../timeline/toMarbles.js'
import type { TimelineEntry, TimelineRecord } from '../timeline/types.js'
import { type TestAgentRecord, testAgentRecord } from './testAgents.js'

/**
 * What a diagram shows. Like `labelled`, the streamed words (`agent/stream/delta`) and the tool
 * lifecycle (`agent/tool/start`, `agent/tool/end`) are left out unless asked for: most specs pin
 * the order of turns and messages, and a word per frame would drown it.
 */
export type AgentMarblesOptions = {
  readonly deltas?: boolean
  readonly tools?: boolean
}

/** The three lanes of a diagram: live events, durable events, and both in their one order. */
export type MarbleLane = 'events' | 'transcript' | 'timeline'

const TOOL_LIFECYCLE: ReadonlySet<string> = new Set(['agent/tool/start', 'agent/tool/end'])

const shown = (entry: TimelineEntry, kept: TestAgentRecord, options: AgentMarblesOptions): boolean => {
  if (entry.stream === 'transcript') return entry.event.seq > kept.fromSeq
  if (entry.stream !== 'events') return false
  if (entry.event.type === 'agent/stream/delta') return options.deltas === true
  return !TOOL_LIFECYCLE.has(entry.event.type) || options.tools === true
}

/** The recorded entries a diagram shows, on frames counted from the agent's creation. */
export const shownRecord = (agent: Agent, options: AgentMarblesOptions, call: string): TimelineRecord => {
  const kept = testAgentRecord(call, agent)
  const all = kept.recording.record()
  return { ...all, entries: all.entries.filter((entry) => shown(entry, kept, options)) }
}

/** The entries of one lane. */
export const laneOf = (record: TimelineRecord, lane: MarbleLane): TimelineRecord =>
  lane === 'timeline' ? record : { ...record, entries: record.entries.filter((e) => e.stream === lane) }

/**
 * The events of an agent made by `createTestAgent`, so far, as marble diagrams (`events`,
 * `transcript`, `timeline`) and their value legend, in the notation of `toMarbles`: frame 0 is
 * the agent's creation. Read it after the scheduler has run, to write a spec's expected diagrams.
 *
 * @example
 * scheduler.run(() => { … })
 * console.log(agentMarbles(agent).text)
 */
export const agentMarbles = (agent: Agent, options: AgentMarblesOptions = {}): Marbles =>
  toMarbles(shownRecord(agent, options, 'agentMarbles()'), { time: 'frames' })
