import type { ContentBlock } from '../contracts/messages.js'
import { mediaLabel } from '../messages/mediaBlocks.js'
import { label } from '../testing/label.js'
import type { TimelineEntry } from './types.js'

export type LaneName =
  | 'inbox'
  | 'turns'
  | 'steps'
  | 'tools'
  | 'approvals'
  | 'history'
  | 'transcript'
  | 'status'
export const LANES: readonly LaneName[] = [
  'inbox',
  'turns',
  'steps',
  'tools',
  'approvals',
  'history',
  'transcript',
  'status',
]
/** Lanes drawn only when something is on them: most sessions never pause, compact or roll back. */
export const OPTIONAL_LANES: ReadonlySet<LaneName> = new Set(['approvals', 'history'])

/** A bar from one entry to another (`open`: not ended when the record ends). */
export type Bar = {
  kind: 'bar'
  lane: LaneName
  row: number
  from: number
  to: number
  open: boolean
  cls: string
  text: string
  /** Index of its details in `Layout.infos`. */
  info: number
  /** The message id, for an inbox bar. */
  id?: string
}
export type Mark = {
  kind: 'mark'
  lane: LaneName
  row: number
  at: number
  cls: string
  text: string
  info: number
  id?: string
}
type Point = { lane: LaneName; row: number; at: number }

/** Positions are entry indexes (from 0); `svg.ts` maps them to x by event order or wall time. */
export type Shape =
  | Bar
  | Mark
  | { kind: 'link'; from: Point; to: Point }
  | { kind: 'window'; from: number; to: number; info: number }

/**
 * What the timeline draws: shapes, the rows each lane needs (0 for an optional lane with nothing
 * on it, which is not drawn), and the details shown on click.
 */
export type Layout = {
  readonly shapes: Shape[]
  readonly rows: Record<LaneName, number>
  readonly infos: unknown[]
  /** How many entries (positions) there are. */
  readonly count: number
}

/** The text of content blocks, as the timeline shows it. */
export const contentText = (content: readonly ContentBlock[]): string =>
  content
    .map((b) =>
      b.type === 'text' || b.type === 'reasoning'
        ? b.text
        : b.type === 'tool-call'
          ? `${b.name}()`
          : b.type === 'image' || b.type === 'file'
            ? mediaLabel(b)
            : '',
    )
    .join('')

/** A short label for any entry (the labels of `steerable/testing`): `toMarbles` and tooltips use it. */
export const entryLabel = (entry: TimelineEntry): string => {
  if (entry.stream !== 'journal') return label(entry.event)
  const r = entry.event
  if (r.op === 'add' || r.op === 'replace') return `journal:${r.op}(${contentText(r.message.content)})`
  if (r.op === 'settle') return `journal:settle(${r.outcome.kind})`
  return `journal:${r.op}`
}
