/**
 * Memory of 100,000 queued followups (queued while a turn is held open).
 * Each measurement runs in its own child process started with `--expose-gc`, so every subject
 * starts from a clean heap and its peak RSS is its own:
 *
 * - heap bytes per queued message: `heapUsed` after a full GC, after queueing minus before, ÷ N.
 *   The message texts are made before the first reading and kept alive, so the content is
 *   excluded; what is counted is everything the library (and, for the peer, the caller, who
 *   must build the message object) keeps per message: wrappers, ids, queue nodes.
 * - peak RSS: the child's `maxRSS` (the whole process: runtime, loaded modules, the queue).
 *
 * `node --import tsx bench/memory.ts` (the children get `--expose-gc`). Medians of RUNS children.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { ensurePeers } from './lib/peers.js'
import { collect, median, progress, type Row, report, SUBJECTS, type SubjectId } from './lib/report.js'
import { loadSubjects } from './lib/subjects.js'

const N = 100_000
const RUNS = Number(process.env.BENCH_RUNS ?? 3)

type Sample = { readonly bytesPerMessage: number; readonly peakRss: number; readonly rssBefore: number }

const child = async (subject: SubjectId): Promise<Sample> => {
  const { factories } = await loadSubjects(subject === 'pi' || subject === 'piAll')
  const make = factories[subject]
  if (!make) throw new Error(`${subject} is not available`)
  const h = make()
  await h.hold('first')
  const texts = Array.from({ length: N }, (_, i) => `queued followup number ${i}`)
  collect()
  const heap0 = process.memoryUsage().heapUsed
  const rssBefore = process.memoryUsage().rss
  for (let i = 0; i < N; i++) h.send(texts[i] as string)
  collect()
  const heap1 = process.memoryUsage().heapUsed
  const peakRss = process.resourceUsage().maxRSS * 1024
  if (texts.length !== N) throw new Error('unreachable: keeps the texts alive until here')
  // Use the agent after the reading: otherwise it (and its queue) is garbage by then.
  h.discard()
  h.release()
  await h.whenIdle()
  return { bytesPerMessage: (heap1 - heap0) / N, peakRss, rssBefore }
}

const childArg = process.argv.indexOf('--child')
if (childArg >= 0) {
  const sample = await child(process.argv[childArg + 1] as SubjectId)
  console.log(JSON.stringify(sample))
  process.exit(0)
}

const hasPeer = ensurePeers()
const present = SUBJECTS.filter((s) => hasPeer || (s !== 'pi' && s !== 'piAll'))
const samples = new Map<SubjectId, Sample[]>()
for (let run = 1; run <= RUNS; run++) {
  for (const s of present) {
    const result = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', s],
      { encoding: 'utf8', cwd: process.cwd() },
    )
    const line = result.stdout.trim().split('\n').at(-1) ?? ''
    if (result.status !== 0 || !line.startsWith('{')) {
      console.error(`memory child ${s} failed:\n${result.stderr}`)
      continue
    }
    samples.set(s, [...(samples.get(s) ?? []), JSON.parse(line) as Sample])
  }
  progress(`memory: run ${run}/${RUNS}`)
}
collect()

const cells = (pick: (x: Sample) => number, scale = 1) =>
  Object.fromEntries(
    present.flatMap((s) => {
      const xs = samples.get(s) ?? []
      return xs.length > 0 ? [[s, { value: median(xs.map(pick)) / scale }] as const] : []
    }),
  )
const section = `memory: ${N.toLocaleString('en-US')} followups queued while a turn is held open (child process each)`
const runs = present.map((s) => samples.get(s)?.length ?? 0).join('/')
const rows: Row[] = [
  {
    section,
    measure: 'heap bytes per queued message (content excluded)',
    unit: 'B',
    runs,
    cells: cells((x) => x.bytesPerMessage),
  },
  { section, measure: 'peak RSS of the process', unit: 'MiB', runs, cells: cells((x) => x.peakRss, 2 ** 20) },
  {
    section,
    measure: 'RSS before queueing (runtime + modules)',
    unit: 'MiB',
    runs,
    cells: cells((x) => x.rssBefore, 2 ** 20),
  },
]
report('memory', rows)
