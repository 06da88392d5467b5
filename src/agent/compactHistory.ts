import { filter, firstValueFrom, type Observable } from 'rxjs'
import type { CompactionOptions } from '../contracts/compaction.js'
import type { AgentEvent, CompactionResult } from '../contracts/events.js'
import type { CompactionOrder } from '../machine/state.js'

const DEFAULT_KEEP = 1

/** How many turns a compaction keeps unless `compact()` says: the agent's option, else one. */
export const defaultKeep = (agent: CompactionOptions | undefined): number =>
  agent?.keepLastTurns ?? DEFAULT_KEEP

/** R76: the reducer's automatic order, when the agent compacts by itself. */
export const autoCompaction = (
  agent: CompactionOptions | undefined,
): (CompactionOrder & { readonly threshold: number }) | undefined =>
  agent?.whenInputTokensExceed === undefined
    ? undefined
    : { ref: 0, keepLastTurns: defaultKeep(agent), threshold: agent.whenInputTokensExceed }

/**
 * The result of the next `compaction/end`: the one this call started, or the one it joined (R74).
 * Subscribed before the command is sent, since a compaction that finds nothing to do ends at once.
 */
export const nextCompactionEnd = (
  events$: Observable<AgentEvent>,
  send: () => void,
): Promise<CompactionResult> => {
  const ended = firstValueFrom(events$.pipe(filter((e) => e.type === 'agent/compaction/end')), {
    defaultValue: undefined,
  })
  send()
  return ended.then((e) => e?.result ?? { kind: 'aborted' })
}
