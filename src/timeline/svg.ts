import { escapeHtml as esc } from './escape.js'
import { LANES, type LaneName, type Layout, type Shape } from './shapes.js'
import type { TimelineRecord } from './types.js'

/** The x axis: one step per event (the default), or the events' wall time. */
export type TimeAxis = 'order' | 'wall'

const LEFT = 100
const STEP = 26
const ROW = 22
const LANE_GAP = 10
const TOP = 24

/** Whether every entry has a time (a session log has none): only then can `wall` be drawn. */
export const hasWallTime = (record: TimelineRecord): boolean =>
  record.entries.length > 0 && record.entries.every((e) => typeof e.t === 'number')

/** x of each entry index, by order or by time (ties in time keep their order a few pixels apart). */
const xScale = (record: TimelineRecord, axis: TimeAxis): { x: (i: number) => number; width: number } => {
  const n = Math.max(1, record.entries.length)
  const orderWidth = LEFT + 40 + n * STEP
  if (axis === 'order' || !hasWallTime(record)) return { x: (i) => LEFT + 20 + i * STEP, width: orderWidth }
  const times = record.entries.map((e) => e.t as number)
  const t0 = times[0]!
  const span = Math.max(1, times[times.length - 1]! - t0)
  const width = Math.max(900, Math.min(orderWidth, 4000))
  const scale = (width - LEFT - 60) / span
  const xs: number[] = []
  times.forEach((t, i) => {
    const raw = LEFT + 20 + (t - t0) * scale
    xs.push(i > 0 && raw < xs[i - 1]! + 3 ? xs[i - 1]! + 3 : raw)
  })
  return { x: (i) => xs[i] ?? LEFT + 20, width: Math.max(width, (xs[xs.length - 1] ?? 0) + 40) }
}

/**
 * The timeline as one inline SVG: a band per lane, bars, marks, the landing arrows and the
 * shaded acceptance windows. Every text is escaped; each clickable shape carries `data-info`, the
 * index of its details in `layout.infos`.
 */
export const renderTimelineSvg = (
  record: TimelineRecord,
  layout: Layout,
  axis: TimeAxis = 'order',
): string => {
  const { x, width } = xScale(record, axis)
  const laneTop = {} as Record<LaneName, number>
  let y = TOP
  const drawn = LANES.filter((lane) => layout.rows[lane] > 0)
  for (const lane of drawn) {
    laneTop[lane] = y
    y += layout.rows[lane] * ROW + LANE_GAP
  }
  const height = y + 10
  const yOf = (lane: LaneName, row: number) => laneTop[lane] + row * ROW
  const parts: string[] = []
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" data-axis="${axis}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z"/></marker></defs>',
  )
  for (const lane of drawn) {
    const h = layout.rows[lane] * ROW
    parts.push(
      `<g class="lane" data-lane="${lane}"><rect class="lane-bg" x="0" y="${laneTop[lane] - 3}" width="${width}" height="${h + 6}"/>`,
      `<text class="lane-name" x="8" y="${laneTop[lane] + 15}">${lane}</text></g>`,
    )
  }
  for (let i = 0; i < layout.count; i += 5) {
    const tick =
      axis === 'wall' && hasWallTime(record)
        ? `${record.entries[i]!.t! - record.entries[0]!.t!}ms`
        : `${i + 1}`
    parts.push(`<text class="tick" x="${x(i)}" y="14">${esc(tick)}</text>`)
  }
  for (const shape of layout.shapes) parts.push(draw(shape, x, yOf, y))
  parts.push('</svg>')
  return parts.join('')
}

/** About the width of one character of the 11px labels, rounded up: what decides where to cut. */
const CHAR_PX = 6.5

/** `text` cut to `chars` characters, the last one an ellipsis when it was cut (22 at most). */
const short = (text: string, chars: number) => {
  const room = Math.min(22, Math.floor(chars))
  if (text.length <= room) return text
  return room >= 2 ? `${text.slice(0, room - 1)}…` : ''
}

/**
 * A bar's label stays inside its bar, clear of the marks at its ends (a dot sat on a long label
 * of a short bar): cut to the room there is, and clipped to it (an inner `svg` clips what it holds)
 * for letters wider than the estimate. The whole text is the bar's `title`.
 */
const barLabel = (x1: number, y: number, width: number, text: string): string => {
  const room = Math.max(0, width - 8 - 7)
  const label = short(text, room / CHAR_PX)
  if (label === '') return ''
  return `<svg class="label" x="${x1 + 8}" y="${y}" width="${room}" height="${ROW}"><text x="0" y="15">${esc(label)}</text></svg>`
}

const draw = (
  shape: Shape,
  x: (i: number) => number,
  yOf: (lane: LaneName, row: number) => number,
  bottom: number,
): string => {
  const id = 'id' in shape && shape.id ? ` data-msg="${esc(shape.id)}"` : ''
  switch (shape.kind) {
    case 'window': {
      const x1 = x(shape.from)
      return `<rect class="window" data-info="${shape.info}" x="${x1}" y="${TOP - 4}" width="${Math.max(2, x(shape.to) - x1)}" height="${bottom - TOP}"><title>acceptance window</title></rect>`
    }
    case 'bar': {
      const x1 = x(shape.from)
      const x2 = shape.open ? x(shape.to) + 12 : x(shape.to)
      const y = yOf(shape.lane, shape.row)
      const width = Math.max(3, x2 - x1)
      return (
        `<g class="bar ${esc(shape.cls)}${shape.open ? ' open' : ''}" data-info="${shape.info}"${id}>` +
        `<rect x="${x1}" y="${y + 4}" width="${width}" height="${ROW - 8}" rx="3"/>` +
        `${barLabel(x1, y, width, shape.text)}<title>${esc(shape.text)}</title></g>`
      )
    }
    case 'mark': {
      const y = yOf(shape.lane, shape.row) + ROW / 2
      return `<circle class="mark ${esc(shape.cls)}" data-info="${shape.info}"${id} cx="${x(shape.at)}" cy="${y}" r="5"><title>${esc(shape.text)}</title></circle>`
    }
    case 'link': {
      const x1 = x(shape.from.at)
      const y1 = yOf(shape.from.lane, shape.from.row) + ROW / 2
      const x2 = x(shape.to.at)
      const y2 = yOf(shape.to.lane, shape.to.row) + ROW / 2 - 6
      return `<path class="link" d="M${x1} ${y1 + 6}L${x2} ${y2}" marker-end="url(#arrow)"/>`
    }
  }
}
