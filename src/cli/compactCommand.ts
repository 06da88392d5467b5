import type { CompactionResult } from '../contracts/events.js'
import { errorText } from '../messages/errorText.js'

/** What `/compact` does, for `/help`. */
export const COMPACT_HELP =
  '/compact N replaces the conversation before the last N turns with a summary the model writes (without N: the agent’s compaction setting, else 1), at the next turn boundary; the log keeps every message.'

/**
 * The line a `/compact` leaves once it ends, when its `compaction` event did not say it already:
 * a compaction that found nothing to replace, was cancelled or failed.
 */
export const compactionLine = (result: CompactionResult): string | undefined => {
  switch (result.kind) {
    case 'compacted':
      return undefined
    case 'skipped':
      return 'nothing to compact: the conversation is no longer than the turns it keeps'
    case 'aborted':
      return 'the compaction was cancelled; the conversation is as it was'
    case 'error':
      return `the compaction failed, the conversation is as it was: ${errorText(result.error)}`
  }
}
