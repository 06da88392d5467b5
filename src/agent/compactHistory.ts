import { filter, firstValueFrom, type Observable } from 'rxjs'
import type { CompactionOptions, CompactOptions } from '../contracts/compaction.js'
import type { AgentEvent, CompactionResult } from '../contracts/events.js'
import type { CompactionOrder } from '../machine/activity.js'
import type { Driver } from '../runtime/driver.js'
import type { Summarizers } from '../runtime/summarizers.js'

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
    : {
        ref: 0,
        keepLastTurns: defaultKeep(agent),
        threshold: agent.whenInputTokensExceed,
        ...(agent.summarize === undefined ? BY_MODEL : {}),
      }

/** The order of a compaction whose summariser is the agent's model: the budget counts it (R80). */
const BY_MODEL = Object.freeze({ byModel: true as const })

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

/**
 * `compact(options)` (R74): the summariser `options` brings is kept while the compaction runs, and
 * the command goes through the agent's door; resolves with the result of the compaction it started
 * or joined.
 */
export const compactNow = <A>(
  driver: Driver<A>,
  summarizers: Summarizers,
  options: CompactOptions,
): Promise<CompactionResult> => {
  const ref = summarizers.add(options.summarize)
  const keepLastTurns = options.keepLastTurns ?? summarizers.keepLastTurns
  const byModel = options.summarize === undefined && !summarizers.hasOwn ? BY_MODEL : {}
  const compact = () => driver.send({ type: 'compact', ref, keepLastTurns, ...byModel })
  return nextCompactionEnd(driver.events$, compact).finally(() => summarizers.forget(ref))
}
