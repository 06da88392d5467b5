/**
 * The time per accepted followup while a turn is held open, for 100,000 sends
 * (steerable: validation, snapshot, freeze, id and enqueue included), beside the peer's
 * `followUp` and the floor. Three forms: the string shorthand; `{content, source}` data of one
 * text block, which is the shorthand's value (steerable checks it by hand, then takes the string
 * path); and data of two text blocks (steerable's general fast path: checked by hand, copied and
 * frozen). The peer and the floor take the same message shape as each form. Under each row, the
 * GC pauses that fell inside the timed loops (per send).
 *
 * `node --expose-gc --import tsx bench/accept.ts` (or `npm run bench`). Medians of RUNS runs after
 * one warm-up run; subjects alternate within each run, so ratios compare the same moments.
 */
import { performance } from 'node:perf_hooks'
import { gcPauses } from './lib/gcPauses.js'
import { appendTo, collect, median, progress, type Row, report, rotated, SUBJECTS } from './lib/report.js'
import { type Harness, loadSubjects } from './lib/subjects.js'

const N = Number(process.env.BENCH_ACCEPT_N ?? 100_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const { factories } = await loadSubjects()
const gc = gcPauses()

type Form = 'send' | 'sendData' | 'sendBlocks'
const FORMS: readonly [Form, string][] = [
  ['send', "followup('text')"],
  ['sendData', 'followup({content: [1 text block], source})'],
  ['sendBlocks', 'followup({content: [2 text blocks], source})'],
]

/**
 * µs per send for N sends into a harness whose first turn is held open, and how many of those µs
 * were GC pauses (a retained copy that V8 cannot allocate in the old generation at once is copied
 * by the young generation's scavenges; see bench/README.md).
 */
const acceptOnce = async (make: () => Harness, form: Form): Promise<{ us: number; gcUs: number }> => {
  const h = make()
  await h.hold('first')
  collect()
  const t0 = performance.now()
  for (let i = 0; i < N; i++) h[form]('a followup message')
  const t1 = performance.now()
  h.discard()
  h.release()
  await h.whenIdle()
  await h.dispose()
  await gc.settle()
  return { us: ((t1 - t0) * 1000) / N, gcUs: (gc.within(t0, t1) * 1000) / N }
}

const times = new Map<string, number[]>()
const present = SUBJECTS.filter((s) => factories[s])
for (let run = 0; run <= RUNS; run++) {
  const order = rotated(present, run)
  for (const [form] of FORMS) {
    for (const subject of order) {
      const make = factories[subject]
      if (!make) continue
      const { us, gcUs } = await acceptOnce(() => make(), form)
      if (run > 0) {
        appendTo(times, `${form}/${subject}`, us)
        appendTo(times, `${form}/${subject}/gc`, gcUs)
      }
    }
  }
  progress(`accept: run ${run}/${RUNS}${run === 0 ? ' (warm-up)' : ''}`)
}

gc.stop()
const section = `accept: time per followup() while a turn is held open, ${N.toLocaleString('en-US')} sends`
const row = (measure: string, key: (subject: string) => string): Row => ({
  section,
  measure,
  unit: 'µs',
  runs: String(RUNS),
  cells: Object.fromEntries(present.map((s) => [s, { value: median(times.get(key(s)) ?? []) }] as const)),
})
const rows: Row[] = FORMS.flatMap(([form, label]) => [
  row(label, (s) => `${form}/${s}`),
  row('  of which GC pauses', (s) => `${form}/${s}/gc`),
])
report('accept', rows)
