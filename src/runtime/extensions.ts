import type { Agent } from '../contracts/agent.js'
import type { AgentHooks, PromptDecision, PromptSubmitArgs } from '../contracts/hooks.js'
import { hookList } from './callHook.js'

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

/**
 * Registers `agent`'s extensions and returns the hooks its effect runner uses: the agent's own,
 * with the `promptSubmit` hooks added by companions (`addPromptSubmit`) running first.
 */
export const extendAgent = (
  agent: Agent,
  hooks: AgentHooks<Agent> | undefined,
  wakingHumanPrompts: () => number,
): AgentHooks<Agent> => {
  const extra: PromptSubmitHook[] = []
  registerExtensions(agent, {
    wakingHumanPrompts,
    addPromptSubmit: (hook) => {
      extra.push(hook)
      return () => {
        const at = extra.indexOf(hook)
        if (at >= 0) extra.splice(at, 1)
      }
    },
  })
  return {
    ...hooks,
    get promptSubmit() {
      const own = hookList(hooks?.promptSubmit)
      return extra.length === 0 ? own : [...extra, ...own]
    },
  }
}
