/** `steerable/testing`: scripted models and marble helpers for tests of agents. */
export { type AgentMarblesOptions, agentMarbles, type MarbleLane } from './marbleKit/agentMarbles.js'
export { createTestAgent, type TestAgentOptions } from './marbleKit/createTestAgent.js'
export { type ExpectedAgentMarbles, expectAgentMarbles } from './marbleKit/expectAgentMarbles.js'
export { label, labelled } from './testing/label.js'
export {
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  scriptedModel,
  wordDeltas,
} from './testing/scriptedModel.js'
export type { Marbles } from './timeline/toMarbles.js'
