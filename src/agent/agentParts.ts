import type { Agent } from '../contracts/agent.js'
import type { SessionStore } from '../contracts/store.js'
import type { HookSet } from '../runtime/hookSet.js'
import type { Summarizers } from '../runtime/summarizers.js'
import type { Transcript } from '../session/transcript.js'

/**
 * What an agent's public face reads besides its driver's door: the session it shows (transcript,
 * store), what `compact()` and companions add to (summarisers, hooks), and the limits its checks
 * apply. `createAgent` makes it; the engine is given the same objects in its own config.
 */
export type AgentParts = {
  readonly transcript: Transcript
  readonly store: SessionStore
  readonly summarizers: Summarizers
  readonly hooks: HookSet<Agent>
  /** `createAgent({maxQueued})` (R48). */
  readonly maxQueued: number | undefined
  /** The agent's `maxBlockBytes` (R86), which every send and replace checks its media against. */
  readonly maxBlockBytes: number
}
