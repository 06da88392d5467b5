import type { SessionEvent } from '../contracts/events.js'
import type { InboxRecord } from '../contracts/inbox.js'
import { jsonSafe } from '../messages/jsonSafe.js'
import type { TimelineEntry, TimelineRecord } from './types.js'

/**
 * A record rebuilt from what a session store holds: its durable events in `seq` order, then the
 * records of its inbox journal (what still waited, or was settled without a trace in the
 * transcript, when the session was last written). A log keeps no clock, so entries have no `t`
 * and the timeline uses event order; the lifecycle lane stays empty (it is never persisted).
 *
 * @example renderTimeline(recordFromSession(agent.session.events))
 */
export const recordFromSession = (
  events: readonly SessionEvent[],
  options: { readonly journal?: readonly InboxRecord[]; readonly agentId?: string } = {},
): TimelineRecord => {
  const entries: TimelineEntry[] = []
  for (const event of events) entries.push({ seq: entries.length + 1, stream: 'transcript', event })
  // A journal is compacted only when its store opens: it may still hold items the transcript
  // shows delivered, which did not wait at the end.
  const delivered = new Set<string>()
  for (const e of events)
    if ((e.type === 'user/message' || e.type === 'steering/message') && e.data.id) delivered.add(e.data.id)
  for (const record of options.journal ?? []) {
    if (delivered.has(record.op === 'add' || record.op === 'replace' ? record.message.id : record.id))
      continue
    entries.push({ seq: entries.length + 1, stream: 'journal', event: jsonSafe(record) as InboxRecord })
  }
  return {
    format: 'steerable-timeline',
    version: 1,
    ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
    source: 'session',
    entries,
  }
}
