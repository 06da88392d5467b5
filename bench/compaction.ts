/**
 * What compaction (R74–R76) costs the reads and the sends of a session, steerable only; prints its
 * own table:
 *
 * - messages: µs per `session.messages()` on a session of 100,000 events compacted to a two-turn
 *   tail, against a fresh session holding only that tail (the summary and the same two turns),
 *   each call right after an `inject()` appended an event; then µs per turn (followup to idle) on
 *   both; the same 100,000 events uncompacted for reference (bench/lib/compactionReads.ts);
 * - open: `fileStore(path)` + `createAgent` + `messages()` on a compacted 120,000-event log
 *   against the parse floor (`readFileSync` + `JSON.parse` per line, as bench/sessionOpen.ts),
 *   `fileStore(path)` alone, and the uncompacted log for reference (a child process each);
 * - accept: µs per `followup()` and `steer()` into a held turn with the `compaction` option set,
 *   and on a session holding a compaction, against neither (bench/lib/compactionAccept.ts).
 *
 * `node --expose-gc --import tsx bench/compaction.ts` after `npm run build`, or
 * `BENCH_ONLY=compaction npm run bench`. BENCH_RUNS sets the runs (default 5, after a warm-up).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { firstValueFrom, from } from 'rxjs'
import type { SessionEvent } from '../src/index.js'
import { childArgs, childDone, inChild } from './lib/children.js'
import { type AgentForm, acceptSends, type SendKind } from './lib/compactionAccept.js'
import { readCosts } from './lib/compactionReads.js'
import { gcPauses } from './lib/gcPauses.js'
import { compactedTurns, tailOnly, turns } from './lib/longHistory.js'
import {
  appendTo,
  collect,
  fmtCell,
  machineInfo,
  median,
  progress,
  rotated,
  type Unit,
} from './lib/report.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const READ_TURNS = 16_666 // 99,996 events, then the compaction
const OPEN_TURNS = 20_000 // 120,000 events
const KEEP = 2
const ROUNDS = 30
const CALLS = 10
const BATCHES = 100
const PER_BATCH = 1_000

// open, in a child: one warm-up open, then the median of three.
type OpenMeasure = 'floor' | 'store' | 'compacted' | 'plain'
const openChild = async (measure: OpenMeasure, path: string): Promise<number> => {
  const { steerable } = await import('./lib/built.js')
  const once = (): number => {
    const t0 = performance.now()
    if (measure === 'floor') {
      const values: unknown[] = []
      for (const line of readFileSync(path, 'utf8').split('\n'))
        if (line.length > 0) values.push(JSON.parse(line))
      return performance.now() - t0
    }
    const store = steerable.fileStore(path)
    if (measure === 'store') {
      const t1 = performance.now()
      if (store.load().length !== 6 * OPEN_TURNS + 1) throw new Error('wrong event count')
      store.close?.()
      return t1 - t0
    }
    const agent = steerable.createAgent({ model: () => [], store })
    const length = agent.session.messages().length
    const t1 = performance.now()
    if (length !== (measure === 'compacted' ? 1 + 2 * KEEP : 2 * OPEN_TURNS))
      throw new Error('wrong messages')
    store.close?.()
    return t1 - t0
  }
  once()
  const times: number[] = []
  for (let i = 0; i < 3; i++) {
    collect()
    times.push(once())
  }
  return median(times)
}
const args = childArgs()
if (args) childDone({ value: await openChild(args[0] as OpenMeasure, args[1] as string) })

const { steerable } = await import('./lib/built.js')
const started = Date.now()
const dir = mkdtempSync(join(tmpdir(), 'steerable-bench-compaction-'))
const writeLog = async (name: string, events: readonly SessionEvent[]): Promise<string> => {
  const path = join(dir, name)
  const store = steerable.fileStore(path)
  store.append(events)
  await firstValueFrom(from(store.flush()), { defaultValue: undefined })
  store.close?.()
  return path
}
const logs: Record<Exclude<OpenMeasure, 'floor' | 'store'>, string> = {
  compacted: await writeLog('compacted.jsonl', compactedTurns(OPEN_TURNS, KEEP)),
  plain: await writeLog('plain.jsonl', turns(OPEN_TURNS)),
}
const samples = new Map<string, number[]>()
const script = fileURLToPath(import.meta.url)
for (let run = 1; run <= RUNS; run++) {
  for (const measure of rotated(['floor', 'store', 'compacted', 'plain'] as const, run)) {
    const path = measure === 'floor' || measure === 'store' ? logs.compacted : logs[measure]
    const r = inChild<{ value: number }>(script, [measure, path])
    if (r) appendTo(samples, `open/${measure}`, r.value)
  }
  progress(`compaction: open run ${run}/${RUNS}`)
}
rmSync(dir, { recursive: true, force: true })

type ReadForm = 'compacted' | 'tail' | 'plain'
const histories: Record<ReadForm, SessionEvent[]> = {
  compacted: compactedTurns(READ_TURNS, KEEP),
  tail: tailOnly(READ_TURNS, KEEP),
  plain: turns(READ_TURNS),
}
for (let run = 1; run <= RUNS; run++) {
  const costs = await readCosts(histories, ROUNDS, 5, CALLS)
  for (const form of ['compacted', 'tail', 'plain'] as const) {
    appendTo(samples, `messages/${form}`, costs[form].messagesUs)
    appendTo(samples, `turn/${form}`, costs[form].turnUs)
  }
  progress(`compaction: reads run ${run}/${RUNS}`)
}

const gc = gcPauses()
const FORMS: readonly AgentForm[] = ['plain', 'option', 'compacted']
for (let run = 0; run <= RUNS; run++) {
  for (const kind of ['followup', 'steer'] as const)
    for (const form of rotated(FORMS, run)) {
      const { us, gcUs } = await acceptSends(form, kind, BATCHES, PER_BATCH, gc)
      if (run > 0) {
        appendTo(samples, `${kind}/${form}`, us)
        appendTo(samples, `${kind}/${form}/gc`, gcUs)
      }
    }
  progress(`compaction: accept run ${run}/${RUNS}${run === 0 ? ' (warm-up)' : ''}`)
}
gc.stop()

type Line = readonly [measure: string, value: string, compared: string, target: string, runs: string]
const med = (key: string) => median(samples.get(key) ?? [])
const n = (key: string) => String(samples.get(key)?.length ?? 0)
const times = (r: number) => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`
const line = (label: string, key: string, unit: Unit, base?: [string, string], target = ''): Line => [
  `  ${label}`,
  fmtCell({ value: med(key) }, unit),
  base ? `${times(med(key) / med(base[0]))} ${base[1]}` : '',
  target,
  n(key),
]
const section = (title: string): Line => [`[${title}]`, '', '', '', '']
const TAIL: [string, string] = ['messages/tail', 'the tail-only session']
const TURN_TAIL: [string, string] = ['turn/tail', 'the tail-only session']
const FLOOR: [string, string] = ['open/floor', 'the floor']
const acceptLines = (kind: SendKind, call: string): Line[] => {
  const base: [string, string] = [`${kind}/plain`, 'no option']
  return [
    line(`${call}, no compaction option`, `${kind}/plain`, 'µs'),
    line('  of which GC pauses', `${kind}/plain/gc`, 'µs'),
    line(`${call}, compaction option set`, `${kind}/option`, 'µs', base, '≈ 1.0×'),
    line('  of which GC pauses', `${kind}/option/gc`, 'µs'),
    line(`${call}, the session holds a compaction`, `${kind}/compacted`, 'µs', base, '≈ 1.0×'),
    line('  of which GC pauses', `${kind}/compacted/gc`, 'µs'),
  ]
}
const events = (count: number) => count.toLocaleString('en-US')
const lines: Line[] = [
  section(
    `messages(): each call after an inject() (not timed), ${ROUNDS} rounds of ${CALLS} per session, sessions alternating; ${events(6 * READ_TURNS + 1)} events compacted to ${KEEP} turns`,
  ),
  line('compacted session', 'messages/compacted', 'µs', TAIL, '≤ 2×'),
  line(`fresh session holding only the tail (${events(1 + 6 * KEEP)} events)`, 'messages/tail', 'µs'),
  line(`the ${events(6 * READ_TURNS)} events uncompacted (reference)`, 'messages/plain', 'µs', TAIL),
  section(
    `one turn, followup() to idle, the model reading its request's messages: ${CALLS} a round after the calls above`,
  ),
  line('compacted session', 'turn/compacted', 'µs', TURN_TAIL, '≤ 2×'),
  line('fresh session holding only the tail', 'turn/tail', 'µs'),
  line('the events uncompacted (reference)', 'turn/plain', 'µs', TURN_TAIL),
  section(
    `open: fileStore(path) + createAgent + messages(), ${events(6 * OPEN_TURNS)} events (child process each)`,
  ),
  line(`compacted to ${KEEP} turns (one more event)`, 'open/compacted', 'ms', FLOOR, '≤ 2× floor'),
  line('  of which fileStore(path): read and validate', 'open/store', 'ms', FLOOR),
  line('uncompacted (reference)', 'open/plain', 'ms', FLOOR),
  line('floor: readFileSync + JSON.parse per line', 'open/floor', 'ms'),
  section(
    `accept: time per send while a turn is held in a tool run, ${events(BATCHES * PER_BATCH)} sends (${BATCHES} turns of ${events(PER_BATCH)}), history of 1,000 turns`,
  ),
  ...acceptLines('followup', "followup('text')"),
  ...acceptLines('steer', "steer('text')"),
]

const header = ['measure', 'median', 'compared', 'target', 'runs'] as const
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
const row = (cells: readonly string[]) =>
  cells
    .map((c, i) => (i === 1 || i === 4 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
    .join(' | ')
console.log('\ncompaction benchmark (steerable only, dist/)')
console.log(machineInfo())
console.log(`total time: ${((Date.now() - started) / 1000).toFixed(0)} s\n`)
console.log(row(header))
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'))
for (const l of lines) console.log(row(l))
console.log(
  `\nMedians of ${RUNS} runs, forms alternating. Reads: each run the median of its rounds, after 5 rounds of warm-up. Accept: after a warm-up run. Open: each child opens once to warm up, then reports the median of three.`,
)
