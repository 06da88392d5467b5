import type { Observable } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import type { PromptDecision, PromptSubmitArgs } from '../contracts/hooks.js'
import type { RemoteApplied, RemoteEdit, RemoteEditApplied, RemoteSend } from '../contracts/remote.js'
import type { DeliveryState } from '../machine/state.js'

type PromptSubmitHook = (args: PromptSubmitArgs<Agent>) => PromptDecision | undefined

/**
 * Library-internal seams on an agent, for companions created after it (the goal controller
 * adds a `promptSubmit` hook that runs before the user's). Not exported from the package.
 */
export type AgentExtensions = {
  /**
   * The agent's state on subscribe, then after each reduction (the driver's `snapshots$`): what a
   * companion reads through `machine/selectors.ts` to follow the agent without its events.
   */
  readonly snapshots$: Observable<DeliveryState>
  /** How many times the agent's engine was built (tests read it to see that releases happen). */
  readonly engineBuilds: number
  /** Adds a hook that runs before the agent's own `promptSubmit` hooks; returns its removal. */
  addPromptSubmit(hook: PromptSubmitHook): () => void
  /** How many human prompts (R39) wait in the queued FIFO and may wake the driver (not parked). */
  wakingHumanPrompts(): number
  /** Applies a send minted in another process (R55); see `src/agent/acceptRemote.ts`. */
  acceptRemote(send: RemoteSend): RemoteApplied
  /**
   * Applies an inbox edit, a cancel or an approval decision requested by another process (R55,
   * R58, R65); see `src/agent/agentExtensions.ts`.
   */
  applyRemoteEdit(edit: RemoteEdit): RemoteEditApplied
  /**
   * Hands the store, at once, the events and inbox records it does not hold yet (what
   * `session.flush()` hands over a microtask later), so that a note made right after it is
   * written with them; throws what the store throws.
   */
  handOver(): void
  /**
   * Stops driving without discarding (R57): a running turn ends as by a keepInbox cancel, what
   * waits stays in the store's journal for the next owner, the store is flushed and closed.
   * Resolves like `dispose()`.
   */
  release(): Promise<void>
}

/**
 * The key of an agent's extensions: a registered symbol rather than a module-level map, because
 * each entry point of the package is bundled on its own, and a companion from another entry point
 * (`steerable/postgres`) must find the extensions of an agent made by the main one. The agent's
 * class defines a getter under it (on its prototype, so it costs an agent nothing).
 */
export const EXTENSIONS: unique symbol = Symbol.for('steerable.agentExtensions')

export const extensionsOf = (agent: Agent): AgentExtensions => {
  const extensions = (agent as { [EXTENSIONS]?: AgentExtensions } | null)?.[EXTENSIONS]
  if (!extensions) throw new TypeError('expected an agent made by createAgent()')
  return extensions
}
