/**
 * `npm run bench`: runs the benchmarks, one child process each (with `--expose-gc`), and prints
 * one combined table of the headline figures (accept, turns, drain, memory, many idle agents,
 * streaming, opening a long session: steerable beside the
 * peer `@mariozechner/pi-agent-core` in both its queue modes and the hand-written floor, with
 * steerable's ratio to each, all measured in the same run), then the approvals, interrupting-steer, compaction, text-stream, growth (a long session with every
 * handle, and rollbacks), file-store and
 * PostgreSQL benchmarks (the store, remote sends and steers into worker-driven sessions, failover, long
 * histories), each printing its own table.
 *
 * The peer lives in its own package, bench/peers (package.json + lockfile), installed on first
 * use with `npm ci --prefix bench/peers`, so the library's own install stays lean.
 *
 * It first builds the library (`npm run build`): the benchmarks measure `dist/`, what users run
 * (see bench/lib/built.ts). BENCH_NO_BUILD=1 skips the build when dist/ is known to be fresh.
 *
 * Options (environment): BENCH_RUNS (runs per median, default 3; accept and turns use 5),
 * BENCH_DRAIN_BUDGET_S (time budget of one 100k drain, default 60), BENCH_ONLY (comma-separated
 * script names, e.g. `BENCH_ONLY=accept,drain`). Exits non-zero when a script fails.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensurePeers } from './lib/peers.js'
import { machineInfo, type Row, renderTable } from './lib/report.js'

const here = dirname(fileURLToPath(import.meta.url))
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim())
/** The headline scripts report rows for the combined table; the others print their own. */
const scripts: readonly { readonly name: string; readonly rows: boolean }[] = [
  { name: 'accept', rows: true },
  { name: 'turns', rows: true },
  { name: 'drain', rows: true },
  { name: 'memory', rows: true },
  { name: 'agents', rows: true },
  { name: 'sessions', rows: true },
  { name: 'streaming', rows: true },
  { name: 'sessionOpen', rows: true },
  { name: 'approvals', rows: false },
  { name: 'interrupt', rows: false },
  { name: 'compaction', rows: false },
  { name: 'textStream', rows: false },
  { name: 'growth', rows: false },
  { name: 'fileStore', rows: false },
  { name: 'postgresStore', rows: false },
  { name: 'postgresRemote', rows: false },
  { name: 'postgresFailover', rows: false },
  { name: 'postgresHistory', rows: false },
].filter((s) => !only || only.includes(s.name))

const started = Date.now()
if (process.env.BENCH_NO_BUILD !== '1') {
  console.log('# npm run build (the benchmarks measure dist/)')
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const build = spawnSync(npm, ['run', 'build', '--silent'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    cwd: join(here, '..'),
  })
  if (build.status !== 0) {
    console.error('npm run build failed: nothing to measure')
    process.exit(1)
  }
}
const peerReady = ensurePeers()
const peerVersion = peerReady
  ? (
      JSON.parse(
        readFileSync(join(here, 'peers/node_modules/@mariozechner/pi-agent-core/package.json'), 'utf8'),
      ) as { version: string }
    ).version
  : undefined

const out = mkdtempSync(join(tmpdir(), 'steerable-bench-'))
const rows: Row[] = []
let failed = 0
for (const { name, rows: hasRows } of scripts) {
  console.log(`\n# ${name}.ts`)
  const file = join(out, `${name}.json`)
  const t0 = Date.now()
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(here, `${name}.ts`)], {
    stdio: 'inherit',
    cwd: join(here, '..'),
    env: { ...process.env, BENCH_OUT: file },
  })
  if (result.status !== 0) {
    failed++
    console.error(`${name}.ts failed (${result.signal ?? `exit ${result.status}`})`)
    continue
  }
  console.log(`(${name}.ts: ${((Date.now() - t0) / 1000).toFixed(0)} s)`)
  if (hasRows) rows.push(...(JSON.parse(readFileSync(file, 'utf8')) as Row[]))
}
rmSync(out, { recursive: true, force: true })

console.log(`\n${'='.repeat(100)}`)
console.log('steerable benchmarks: combined table')
console.log(machineInfo())
console.log(
  'command: npm run bench  (tsx bench/run.ts: npm run build, then each script: node --expose-gc --import tsx bench/<name>.ts, measuring dist/)',
)
console.log(
  `peer: @mariozechner/pi-agent-core ${peerVersion ?? '(not installed)'} (bench/peers), default followUpMode 'one-at-a-time' and 'all'`,
)
console.log(`floor: bench/floor.ts (array + head index, no streams, no validation)`)
console.log(`total time: ${((Date.now() - started) / 1000).toFixed(0)} s`)
console.log('')
console.log(renderTable(rows))
console.log(
  [
    '',
    'Figures are medians of the runs shown (per subject: steerable/pi 1-at-a-time/pi all/floor); ratios are',
    "steerable's figure divided by the other's, both measured in this run. '>' marks a drain stopped at its",
    'time budget (a lower bound; the extrapolation fits the per-turn cost over the turn index).',
    "pi all runs all queued follow-ups as one turn (its semantics), not one turn each. '—': not measured",
    '(the peer runs the same code in both modes there).',
  ].join('\n'),
)
process.exitCode = failed > 0 ? 1 : 0
