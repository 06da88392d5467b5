import { layoutBuilder } from './builder.js'
import { layoutDurable, layoutJournal } from './layoutDurable.js'
import { historyLayout } from './layoutHistory.js'
import { layoutLive } from './layoutLive.js'
import { entryLabel, type Layout } from './shapes.js'
import type { TimelineRecord } from './types.js'

/**
 * Lays out a record's lanes as shapes positioned by entry index: pure and free of the DOM, so
 * the same code draws a saved page and the live page in the browser.
 */
export const layoutTimeline = (record: TimelineRecord): Layout => {
  const b = layoutBuilder(record.entries.length)
  const history = historyLayout(b)
  record.entries.forEach((entry, at) => {
    const text = entryLabel(entry)
    if (entry.stream === 'journal') layoutJournal(b, entry.event, at, text)
    else if (entry.stream === 'transcript') {
      // A compaction, rollback or fork says on its mark what it did, not only its label.
      const did = history(entry.event, at)
      layoutDurable(b, entry.event, at, did === undefined ? text : `${text}: ${did}`)
    } else layoutLive(b, entry.event, entry, at, text)
  })
  return b.finish()
}
