/**
 * `npm run bench:ab -- <other>`: this checkout's build beside another build of steerable, in one
 * process, runs alternating, so a change can be compared with what it replaces on a busy machine
 * (separate `npm run bench` runs here differ by tens of percent from one minute to the next).
 * `<other>` is a directory holding a built checkout (its `dist/index.js`), for example a git
 * worktree of the commit before the change after `npm run build` there.
 *
 * Workloads: 20,000 string followups while a turn is held open, 20,000 two-block data followups,
 * and 2,000 bare turns on a scripted model. Prints the median µs of each side and the ratio.
 */
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { Observable } from 'rxjs'

type Lib = {
  createAgent: (options: object) => {
    followup(input: unknown): string
    whenIdle(): Promise<void>
    dispose(): Promise<void>
  }
}

const other = process.argv[2]
if (!other) {
  console.error('usage: npm run bench:ab -- <directory of another built checkout>')
  process.exit(2)
}
const load = async (dir: string): Promise<Lib> =>
  (await import(pathToFileURL(resolve(dir, 'dist/index.js')).href)) as Lib
const sides = { this: await load('.'), other: await load(other) }
const ROUNDS = Number(process.env.BENCH_RUNS ?? 9)

const DONE = [
  { type: 'text', text: 'ok' },
  { type: 'finish', reason: 'stop' },
] as const
/** A model whose first request hangs until `release`, then answers at once. */
const heldModel = () => {
  let release = () => {}
  let first = true
  const model = () => {
    if (!first) return DONE
    first = false
    // An Observable (a bare `{subscribe}` is no stream to rxjs's `from`: the turn would fail at
    // once, and the sends would be measured into an idle agent instead of a held turn).
    return new Observable<unknown>((o) => {
      release = () => {
        for (const e of DONE) o.next(e)
        o.complete()
      }
    })
  }
  return { model, release: () => release() }
}

const TWO = {
  content: [
    { type: 'text', text: 'a' },
    { type: 'text', text: 'b' },
  ],
  source: { kind: 'user' },
}

const accept = async (lib: Lib, input: unknown, n: number): Promise<number> => {
  const { model, release } = heldModel()
  const agent = lib.createAgent({ model })
  agent.followup('first')
  await new Promise((r) => setTimeout(r, 0))
  const t0 = performance.now()
  for (let i = 0; i < n; i++) agent.followup(input)
  const us = ((performance.now() - t0) * 1000) / n
  release()
  await agent.dispose()
  return us
}

const turns = async (lib: Lib, n: number): Promise<number> => {
  let agent = lib.createAgent({ model: () => DONE })
  const t0 = performance.now()
  for (let i = 0; i < n; i++) {
    if (i % 100 === 0) {
      await agent.dispose()
      agent = lib.createAgent({ model: () => DONE })
    }
    agent.followup('q')
    await agent.whenIdle()
  }
  const us = ((performance.now() - t0) * 1000) / n
  await agent.dispose()
  return us
}

const workloads: readonly [string, (lib: Lib) => Promise<number>][] = [
  ["followup('text')", (lib) => accept(lib, 'a followup message', 20_000)],
  ['followup({content: [2 text blocks], source})', (lib) => accept(lib, TWO, 20_000)],
  ['bare turn', (lib) => turns(lib, 2_000)],
]

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] as number
}
console.log(`A/B in one process: this checkout vs ${other}, ${ROUNDS} alternating rounds, medians`)
for (const [name, run] of workloads) {
  const times: Record<'this' | 'other', number[]> = { this: [], other: [] }
  await run(sides.this) // warm-up
  await run(sides.other)
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['this', 'other'] as const) : (['other', 'this'] as const)
    for (const side of order) times[side].push(await run(sides[side]))
  }
  const a = median(times.this)
  const b = median(times.other)
  console.log(
    `${name.padEnd(48)} this ${a.toFixed(2)} µs   other ${b.toFixed(2)} µs   this ÷ other ${(a / b).toFixed(2)}×`,
  )
}
