import type { TestScheduler } from 'rxjs/testing'
import type { Agent } from '../contracts/agent.js'
import { InvalidInputError } from '../contracts/errors.js'
import type { Recording } from '../timeline/record.js'

/** What `createTestAgent` keeps of each agent it made, for `agentMarbles` and `expectAgentMarbles`. */
export type TestAgentRecord = {
  readonly scheduler: TestScheduler
  /** Everything both streams emitted since the agent was made, deltas included, on virtual time. */
  readonly recording: Recording
  /** The transcript's last `seq` when the agent was made: what a store replayed is not drawn. */
  readonly fromSeq: number
}

// Weak, so an agent of a finished spec is not kept alive by its record.
const records = new WeakMap<Agent, TestAgentRecord>()

export const keepTestAgent = (agent: Agent, record: TestAgentRecord): void => {
  records.set(agent, record)
}

/** The record of an agent made by `createTestAgent`; any other agent is bad input to `call`. */
export const testAgentRecord = (call: string, agent: Agent): TestAgentRecord => {
  const record = typeof agent === 'object' && agent !== null ? records.get(agent) : undefined
  if (record) return record
  throw new InvalidInputError(call, [
    {
      path: ['agent'],
      message:
        'expected an agent made by createTestAgent (it records the agent on the test scheduler from its first event)',
    },
  ])
}
