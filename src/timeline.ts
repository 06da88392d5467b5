/**
 * `steerable/timeline`: record an agent's two streams and draw them — a self-contained HTML page
 * (`renderTimeline`) or the marble notation of the specs (`toMarbles`).
 */
export { recordFromSession } from './timeline/fromSession.js'
export { layoutTimeline } from './timeline/layout.js'
export { type RenderOptions, renderTimeline } from './timeline/page.js'
export { readSessionFile, type SessionFileRecord } from './timeline/readSessionFile.js'
export { type Recording, type RecordOptions, record, timelineEntries } from './timeline/record.js'
export type { Layout } from './timeline/shapes.js'
export { TIMELINE_CSS } from './timeline/style.js'
export { renderTimelineSvg, type TimeAxis } from './timeline/svg.js'
export { type Marbles, type MarblesOptions, toMarbles } from './timeline/toMarbles.js'
export type { TimelineEntry, TimelineRecord, TimelineStream } from './timeline/types.js'
