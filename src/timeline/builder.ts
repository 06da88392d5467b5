import { type Bar, LANES, type LaneName, type Layout, OPTIONAL_LANES, type Shape } from './shapes.js'

type Info = Record<string, unknown>
type BarSpec = {
  key: string
  lane: LaneName
  at: number
  cls: string
  text: string
  info: Info
  id?: string
  /** A fixed row, for a lane whose bars follow each other end to start (status). */
  row?: number
}
type MarkSpec = {
  lane: LaneName
  row: number
  at: number
  cls: string
  text: string
  info: Info
  id?: string
}

/** Collects shapes for `layoutTimeline`: bars open and close by key, rows are packed per lane. */
export const layoutBuilder = (count: number) => {
  const shapes: Shape[] = []
  const infos: Info[] = []
  const rowEnds = Object.fromEntries(LANES.map((lane) => [lane, [] as number[]])) as Record<
    LaneName,
    number[]
  >
  const open = new Map<string, Bar>()
  /** The last bar started under each key, open or closed: a rollback marks the turns it undid. */
  const started = new Map<string, Bar>()
  /** Each message's bar, by id: where its landing arrow starts. */
  const bars = new Map<string, Bar>()
  /** Where each prompt was claimed (its `dequeue`): the start of its turn's acceptance window. */
  const claims = new Map<string, number>()
  const addInfo = (info: Info) => infos.push(info) - 1
  /** The first row of `lane` free at `from` (the bars of one row never overlap). */
  const rowFor = (lane: LaneName, from: number, fixed?: number) => {
    const ends = rowEnds[lane]
    let row = fixed ?? ends.findIndex((e) => e < from)
    if (row === -1) row = ends.push(from) - 1
    while (ends.length <= row) ends.push(-1)
    ends[row] = Number.POSITIVE_INFINITY
    return row
  }
  return {
    claims,
    infoOf: (bar: Bar) => infos[bar.info]!,
    bar: (id: string) => bars.get(id),
    opened: (key: string) => open.get(key),
    started: (key: string) => started.get(key),
    start: (spec: BarSpec): Bar => {
      const row = rowFor(spec.lane, spec.at, spec.row)
      const { lane, at, cls, text, id } = spec
      const bar: Bar = {
        kind: 'bar',
        lane,
        row,
        from: at,
        to: Math.max(0, count - 1),
        open: true,
        cls,
        text,
        info: addInfo(spec.info),
        ...(id ? { id } : {}),
      }
      shapes.push(bar)
      open.set(spec.key, bar)
      started.set(spec.key, bar)
      if (id) bars.set(id, bar)
      return bar
    },
    /** Ends the bar open under `key` at `at`, adding `extra` to its details; undefined when none is open. */
    close: (key: string, at: number, extra: Info = {}): Bar | undefined => {
      const bar = open.get(key)
      if (!bar) return undefined
      open.delete(key)
      bar.to = at
      bar.open = false
      Object.assign(infos[bar.info]!, extra)
      rowEnds[bar.lane][bar.row] = at
      return bar
    },
    mark: (spec: MarkSpec) => {
      const { lane, row, at, cls, text, id } = spec
      shapes.push({ kind: 'mark', lane, row, at, cls, text, info: addInfo(spec.info), ...(id ? { id } : {}) })
    },
    link: (from: Bar, at: number) =>
      shapes.push({
        kind: 'link',
        from: { lane: from.lane, row: from.row, at: from.to },
        to: { lane: 'transcript', row: 0, at },
      }),
    /** A shaded acceptance window, drawn behind everything else. */
    window: (from: number, to: number, info: number) => shapes.unshift({ kind: 'window', from, to, info }),
    finish: (): Layout => {
      const used = new Set(shapes.flatMap((s) => (s.kind === 'bar' || s.kind === 'mark' ? [s.lane] : [])))
      const least = (lane: LaneName) => (OPTIONAL_LANES.has(lane) && !used.has(lane) ? 0 : 1)
      const rows = Object.fromEntries(
        LANES.map((lane) => [lane, Math.max(least(lane), rowEnds[lane].length)]),
      ) as Record<LaneName, number>
      rows.status = 2
      return { shapes, rows, infos, count }
    },
  }
}

export type LayoutBuilder = ReturnType<typeof layoutBuilder>
