/**
 * Shared bits of the benchmarks: statistics, the row format each script reports, the
 * combined table, and the machine line. Not a benchmark itself (bench/run.ts lists its scripts).
 */
import { writeFileSync } from 'node:fs'
import { cpus, loadavg, platform, release, totalmem, type } from 'node:os'

/** The libraries compared: steerable, the peer in its two queue modes, and the hand-written floor. */
export type SubjectId = 'steerable' | 'pi' | 'piAll' | 'floor'
export const SUBJECTS: readonly SubjectId[] = ['steerable', 'pi', 'piAll', 'floor']
export const SUBJECT_TITLES: Record<SubjectId, string> = {
  steerable: 'steerable',
  pi: 'pi one-at-a-time',
  piAll: 'pi all',
  floor: 'floor',
}

/** `value` in the row's unit; `bound` marks a value that is a lower bound (a capped run). */
export type Cell = { readonly value: number; readonly text?: string; readonly bound?: boolean }

/** `count`: a plain number (no unit). */
export type Unit = 'µs' | 'ms' | 's' | 'B' | 'KiB' | 'MiB' | '×' | 'count'

export type Row = {
  readonly section: string
  readonly measure: string
  readonly unit: Unit
  readonly cells: Partial<Record<SubjectId, Cell>>
  /** How many runs each median is taken over (per subject when they differ). */
  readonly runs: string
  /** Ratios to the peer / floor make no sense for this row (a ratio row, a flat-cost check). */
  readonly noRatios?: boolean
}

export const median = (xs: readonly number[]): number => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/** `gc()` when the process runs with `--expose-gc`; nothing otherwise. */
export const collect = (): void => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc) {
    gc()
    gc()
  }
}

const fmtNumber = (n: number): string => {
  if (!Number.isFinite(n)) return String(n)
  const abs = Math.abs(n)
  if (abs >= 100) return Math.round(n).toLocaleString('en-US')
  if (abs >= 10) return n.toFixed(1)
  return n.toFixed(2)
}

export const fmtCell = (cell: Cell | undefined, unit: Unit): string => {
  if (!cell) return '—'
  if (cell.text !== undefined) return cell.text
  if (unit === 'count') return fmtNumber(cell.value)
  return unit === '×' ? `${fmtNumber(cell.value)}×` : `${fmtNumber(cell.value)} ${unit}`
}

const ratio = (a: Cell | undefined, b: Cell | undefined): string => {
  if (!a || !b || b.value === 0 || !Number.isFinite(a.value) || !Number.isFinite(b.value)) return '—'
  const r = a.value / b.value
  // A capped (lower-bound) denominator makes the ratio an upper bound, and vice versa.
  const mark = b.bound && !a.bound ? '<' : a.bound && !b.bound ? '>' : ''
  return `${mark}${r >= 10 ? r.toFixed(0) : r >= 0.1 ? r.toFixed(2) : r.toPrecision(2)}×`
}

/** One table: each figure, then steerable's ratio to each peer mode and to the floor. */
export const renderTable = (rows: readonly Row[]): string => {
  const header = [
    'measure',
    ...SUBJECTS.map((s) => SUBJECT_TITLES[s]),
    'steerable ÷ pi 1-at-a-time',
    'steerable ÷ pi all',
    'steerable ÷ floor',
    'runs',
  ]
  const body: string[][] = []
  let section = ''
  for (const row of rows) {
    if (row.section !== section) {
      section = row.section
      body.push([`[${section}]`, ...header.slice(1).map(() => '')])
    }
    const c = row.cells
    body.push([
      `  ${row.measure}`,
      ...SUBJECTS.map((s) => fmtCell(c[s], row.unit)),
      row.noRatios ? '' : ratio(c.steerable, c.pi),
      row.noRatios ? '' : ratio(c.steerable, c.piAll),
      row.noRatios ? '' : ratio(c.steerable, c.floor),
      row.runs,
    ])
  }
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join(' | ')
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)].join('\n')
}

export const machineInfo = (): string => {
  const cpu = cpus()
  return [
    `os: ${type()} ${release()} (${platform()}), ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    `cpu: ${cpu[0]?.model ?? 'unknown'}`,
    `node: ${process.version}`,
    `date: ${new Date().toISOString()}`,
    `load average now (1/5/15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} (a shared machine: other processes share its ${cpu.length} cores)`,
  ].join('\n')
}

/**
 * Hands a script's rows to bench/run.ts (through the file named by `BENCH_OUT`), or prints them
 * as a table when the script runs on its own.
 */
export const report = (title: string, rows: readonly Row[]): void => {
  const out = process.env.BENCH_OUT
  if (out) writeFileSync(out, JSON.stringify(rows))
  console.log(`\n${title}\n${renderTable(rows)}`)
}

/** A progress line on stderr, so a long run shows it is alive. */
export const progress = (text: string): void => {
  process.stderr.write(`  … ${text}\n`)
}

/**
 * The subjects in the order of run `run`: rotated each run, so no subject always runs right
 * after another's garbage.
 */
export const rotated = <T>(subjects: readonly T[], run: number): T[] =>
  subjects.map((_, i) => subjects[(i + run) % subjects.length] as T)

/** Appends `value` to the list kept under `key`. */
export const appendTo = <K, V>(lists: Map<K, V[]>, key: K, value: V): void => {
  lists.set(key, [...(lists.get(key) ?? []), value])
}
