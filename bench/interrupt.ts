/**
 * Interrupting steers (R68, R69), steerable only (the peer has no such steer); prints its own
 * table:
 *
 * - tokens: a scripted 10,000-token answer steered after 100 tokens, `{interrupt: true}` against
 *   a plain steer: tokens streamed after the steer, and the tokens of the whole turn
 *   (bench/lib/interruptTokens.ts);
 * - accept: µs per `steer(x, {interrupt: true})` against `steer(x)`, 100,000 steers into held
 *   turns (100 of 1,000 each), as bench/accept.ts measures `followup()` (bench/lib/interruptAccept.ts);
 * - latency: from the steer to the local HTTP server seeing its connection close, for
 *   `steerable/openai` and `steerable/ai-sdk` with `@ai-sdk/anthropic`
 *   (bench/lib/interruptLatency.ts).
 *
 * `node --expose-gc --import tsx bench/interrupt.ts` after `npm run build`, or
 * `BENCH_ONLY=interrupt npm run bench`. BENCH_RUNS sets the runs of the token and accept parts.
 */
import { gcPauses } from './lib/gcPauses.js'
import { acceptSteers, type SteerForm } from './lib/interruptAccept.js'
import { type Pace, steerToClose, type Wire } from './lib/interruptLatency.js'
import {
  ANSWER_TOKENS,
  REPLY_TOKENS,
  STEER_AFTER,
  type TokenCounts,
  tokenRun,
} from './lib/interruptTokens.js'
import { appendTo, fmtCell, machineInfo, median, progress, rotated, type Unit } from './lib/report.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const BATCHES = 100
const PER_BATCH = 1_000
const N = BATCHES * PER_BATCH
const REPS = 20
const WARM_UP = 3
const started = Date.now()

// Tokens: counted, so a few runs say all; medians in case a run differs.
const tokens = new Map<string, TokenCounts[]>()
for (let run = 1; run <= Math.min(RUNS, 3); run++)
  for (const mode of rotated(['interrupt', 'plain'], run))
    appendTo(tokens, mode, await tokenRun(mode === 'interrupt'))
progress('interrupt: tokens done')

// Accept: a warm-up run, then RUNS runs, the forms alternating within each.
const gc = gcPauses()
const accept = new Map<string, number[]>()
const FORMS: readonly SteerForm[] = ['plain', 'empty', 'interrupt']
for (let run = 0; run <= RUNS; run++) {
  for (const form of rotated(FORMS, run)) {
    const { us, gcUs } = await acceptSteers(form, BATCHES, PER_BATCH, gc)
    if (run > 0) {
      appendTo(accept, form, us)
      appendTo(accept, `${form}/gc`, gcUs)
    }
  }
  progress(`interrupt: accept run ${run}/${RUNS}${run === 0 ? ' (warm-up)' : ''}`)
}
gc.stop()

// Latency: warm-up requests, then REPS per adapter and pace, alternating.
const CASES: readonly (readonly [Wire, Pace])[] = [
  ['openai', 'held'],
  ['openai', 'flood'],
  ['anthropic', 'held'],
  ['anthropic', 'flood'],
]
const latency = new Map<string, number[]>()
for (let rep = 0; rep < WARM_UP + REPS; rep++)
  for (const [wire, pace] of rotated(CASES, rep)) {
    const ms = await steerToClose(wire, pace)
    if (rep >= WARM_UP) appendTo(latency, `${wire}/${pace}`, ms)
  }
progress('interrupt: latency done')

type Line = readonly [measure: string, value: string, compared: string, target: string, runs: string]
const section = (title: string): Line => [`[${title}]`, '', '', '', '']
const cell = (value: number, unit: Unit) =>
  unit === 'count' ? Math.round(value).toLocaleString('en-US') : fmtCell({ value }, unit)
const times = (r: number) =>
  `${r >= 10 ? r.toFixed(0) : r >= 0.1 || r === 0 ? r.toFixed(2) : r.toPrecision(2)}×`

const tok = (mode: string, pick: (t: TokenCounts) => number) => median((tokens.get(mode) ?? []).map(pick))
const tokenRuns = String(tokens.get('plain')?.length ?? 0)
const tokenLines = (measure: string, pick: (t: TokenCounts) => number, unit: Unit, target = ''): Line[] => [
  [
    `  ${measure}, steer(x, {interrupt: true})`,
    cell(tok('interrupt', pick), unit),
    `${times(tok('interrupt', pick) / tok('plain', pick))} the plain steer`,
    target,
    tokenRuns,
  ],
  [`  ${measure}, steer(x)`, cell(tok('plain', pick), unit), '', '', tokenRuns],
]

const acc = (key: string) => median(accept.get(key) ?? [])
const acceptLines = (form: SteerForm, label: string, target: string): Line[] => {
  const compared =
    form === 'plain'
      ? ''
      : form === 'empty'
        ? `${times(acc(form) / acc('plain'))} steer(x)`
        : `${times(acc(form) / acc('plain'))} steer(x); ${times(acc(form) / acc('empty'))} steer(x, {})`
  return [
    [`  ${label}`, cell(acc(form), 'µs'), compared, target, String(RUNS)],
    ['    of which GC pauses', cell(acc(`${form}/gc`), 'µs'), '', '', String(RUNS)],
  ]
}

const lat = (wire: Wire, pace: Pace, label: string): Line => {
  const ms = latency.get(`${wire}/${pace}`) ?? []
  return [
    `  ${label}`,
    cell(median(ms), 'ms'),
    `max ${cell(Math.max(...ms), 'ms')}`,
    '≤ 50 ms',
    String(ms.length),
  ]
}

const lines: Line[] = [
  section(
    `tokens: a scripted ${ANSWER_TOKENS.toLocaleString('en-US')}-token answer (a token per delta, a delta per macrotask), steered after ${STEER_AFTER}; the steer answered in ${REPLY_TOKENS} tokens`,
  ),
  ...tokenLines(
    'tokens the model streamed after the steer',
    (t) => t.streamedAfterSteer,
    'count',
    '≤ 1 chunk',
  ),
  ...tokenLines(
    "deltas of the steered step after the steer's enqueue",
    (t) => t.stepDeltasAfterEnqueue,
    'count',
    '0 (R68)',
  ),
  ...tokenLines('tokens of the whole turn', (t) => t.turnTokens, 'count'),
  ...tokenLines('the turn, send to idle', (t) => t.turnMs, 'ms'),
  section(
    `accept: time per steer while a turn is held in a tool run, ${N.toLocaleString('en-US')} steers (${BATCHES} turns of ${PER_BATCH.toLocaleString('en-US')})`,
  ),
  ...acceptLines('plain', "steer('text')", ''),
  ...acceptLines('empty', "steer('text', {}): an options object, parsed", ''),
  ...acceptLines('interrupt', "steer('text', {interrupt: true})", '≤ 1.05×'),
  section(
    'steer({interrupt: true}) → the local server (127.0.0.1) sees the connection close; 100 deltas seen',
  ),
  lat('openai', 'held', 'steerable/openai, the server waiting after its 100th chunk'),
  lat('openai', 'flood', 'steerable/openai, the server writing as fast as the socket takes'),
  lat('anthropic', 'held', 'steerable/ai-sdk + @ai-sdk/anthropic, the server waiting'),
  lat('anthropic', 'flood', 'steerable/ai-sdk + @ai-sdk/anthropic, the server writing at full speed'),
]

const header = ['measure', 'median', 'compared', 'target', 'runs'] as const
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
const line = (cells: readonly string[]) =>
  cells
    .map((c, i) => (i === 1 || i === 4 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
    .join(' | ')

console.log('\ninterrupt benchmark (steerable only, dist/)')
console.log(machineInfo())
console.log(`total time: ${((Date.now() - started) / 1000).toFixed(0)} s\n`)
console.log(line(header))
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'))
for (const l of lines) console.log(line(l))
console.log(
  [
    '',
    `Tokens: medians of ${tokenRuns} runs (counts; the same each run). Accept: medians of ${RUNS} runs after a warm-up, forms alternating.`,
    `Latency: ${REPS} requests per row after ${WARM_UP} of warm-up, rows alternating; server and agent share this process.`,
  ].join('\n'),
)
