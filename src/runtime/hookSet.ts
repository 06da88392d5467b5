import type { AgentHooks, PromptDecision, PromptSubmitArgs } from '../contracts/hooks.js'
import { hookList } from './callHook.js'

/** A `promptSubmit` hook a companion adds (the goal controller's): it answers at once. */
export type AddedPromptSubmit<A> = (args: PromptSubmitArgs<A>) => PromptDecision | undefined

/** The hooks as the effect runner reads them: the `hooks` option's shape, any of them absent. */
export type Hooks<A> = { readonly [K in keyof AgentHooks<A>]?: AgentHooks<A>[K] | undefined }

/**
 * The hooks an agent's effects call: its own (the `hooks` option), with the `promptSubmit`
 * hooks that companions created after it add (`add`) running first. One small object per agent;
 * the getters live on the prototype.
 */
export class HookSet<A> implements Hooks<A> {
  readonly #own: AgentHooks<A> | undefined
  #added: AddedPromptSubmit<A>[] | undefined

  constructor(own: AgentHooks<A> | undefined) {
    this.#own = own
  }

  get promptSubmit(): AgentHooks<A>['promptSubmit'] {
    const own = hookList(this.#own?.promptSubmit)
    const added = this.#added
    return added === undefined || added.length === 0 ? own : [...added, ...own]
  }

  get step(): AgentHooks<A>['step'] {
    return this.#own?.step
  }

  get turnStopping(): AgentHooks<A>['turnStopping'] {
    return this.#own?.turnStopping
  }

  get requestError(): AgentHooks<A>['requestError'] {
    return this.#own?.requestError
  }

  /** Adds a `promptSubmit` hook that runs before the agent's own; returns its removal. */
  add(hook: AddedPromptSubmit<A>): () => void {
    this.#added ??= []
    this.#added.push(hook)
    return () => {
      const added = this.#added ?? []
      const at = added.indexOf(hook)
      if (at >= 0) added.splice(at, 1)
    }
  }
}
