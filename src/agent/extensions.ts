import type { PromptDecision, PromptSubmitArgs } from '../loop/hooks.js'
import type { Agent } from './types.js'

type PromptSubmitHook = (args: PromptSubmitArgs<Agent>) => PromptDecision | undefined

/**
 * Library-internal seams on an agent, for companions created after it (the goal controller
 * adds a `promptSubmit` hook that runs before the user's). Not exported from the package.
 */
export type AgentExtensions = {
  /** Adds a hook that runs before the agent's own `promptSubmit` hooks; returns its removal. */
  addPromptSubmit(hook: PromptSubmitHook): () => void
  /** How many human prompts (R39) wait in the queued FIFO and may wake the driver (not parked). */
  wakingHumanPrompts(): number
}

const registry = new WeakMap<Agent, AgentExtensions>()

export const registerExtensions = (agent: Agent, extensions: AgentExtensions): void => {
  registry.set(agent, extensions)
}

export const extensionsOf = (agent: Agent): AgentExtensions => {
  const extensions = registry.get(agent)
  if (!extensions) throw new TypeError('expected an agent made by createAgent()')
  return extensions
}
