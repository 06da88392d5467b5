/**
 * Growth over a long session: whether a turn costs the same at turn 10,000 as at turn 1, with
 * every reactive handle in use, and whether rollbacks make the heap grow.
 *
 * - **handles**: one agent, 10,000 turns. Each turn is a followup whose step 1 calls a tool that
 *   needs approval (approved by an `approvals$` subscriber) and whose step 2 streams its answer;
 *   a budget pauses every turn (`raiseBudget` by two requests, from an `events$` subscriber,
 *   lets it go on); automatic compaction runs about every 25 turns. Per turn, fresh
 *   subscriptions to `reply$(id)`, `outcome$(id)`, `text$`, `window$` and `approvals$` are made
 *   and end with the reply. Wall time per 1,000 turns, after a warm-up session of 1,000 turns in
 *   the same process: flat means no handle walks the history.
 * - **rollbacks**: heap after GC after 2,000 and 10,000 one-step turns with `rollback(1)` after
 *   every second turn, against the same turns without rollbacks (child processes, `--expose-gc`).
 *   Both end with the same turns in `session.messages()` only if compared at equal messages, so
 *   the plain run is also measured at 5,000 turns (its messages then equal the rolled-back
 *   run's at 10,000).
 *
 * `node --expose-gc --import tsx bench/growth.ts` after `npm run build`, or
 * `BENCH_ONLY=growth npm run bench`. Prints its own table.
 */
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { firstValueFrom, lastValueFrom, of, Subscription } from 'rxjs'
import { z } from 'zod'
import type { Agent, ModelEvent, ModelRequest } from '../src/index.js'
import { childArgs, childDone, inChild } from './lib/children.js'
import { machineInfo, progress } from './lib/report.js'

const TURNS = Number(process.env.BENCH_GROWTH_TURNS ?? 10_000)
const BLOCK = TURNS / 10

/** Step 1 calls `rm`; step 2 (after its result) streams an answer. Usage grows with the history. */
const model = (request: ModelRequest): ModelEvent[] => {
  const usage = { inputTokens: request.messages.length * 10, outputTokens: 5 }
  if (request.messages.at(-1)?.role !== 'tool')
    return [
      { type: 'tool-call', id: 'call-1', name: 'rm', arguments: '{}' },
      { type: 'finish', reason: 'tool-calls', usage },
    ]
  return [
    { type: 'text', text: 'Removed ' },
    { type: 'text', text: 'it, ' },
    { type: 'text', text: 'as asked.' },
    { type: 'finish', reason: 'stop', usage },
  ]
}

/** A session of `turns` turns, with every handle in use per turn; the time of each `block` turns. */
const handlesChild = async (turns: number, block: number): Promise<{ blocks: number[]; counts: string }> => {
  const { steerable } = await import('./lib/built.js')
  const rm = steerable.defineTool({
    name: 'rm',
    description: 'Removes.',
    parameters: z.object({}),
    needsApproval: true,
    execute: () => 'removed',
  })
  const agent: Agent = steerable.createAgent({
    model,
    tools: [rm],
    budget: { maxRequests: 1, onExceed: 'pause' },
    compaction: { whenInputTokensExceed: 1_000, keepLastTurns: 2, summarize: () => of('Earlier turns.') },
  })
  agent.events$.subscribe((e) => {
    if (e.type === 'agent/budget/exceeded')
      queueMicrotask(() => agent.raiseBudget({ maxRequests: agent.usage.requests + 2 }))
  })
  const perBlock: number[] = []
  let t0 = performance.now()
  for (let turn = 1; turn <= turns; turn++) {
    const id = agent.followup(`remove file ${turn}`)
    const handles = new Subscription()
    let text = ''
    handles.add(
      agent.text$.subscribe((t) => {
        text = t.text
      }),
    )
    handles.add(agent.window$.subscribe())
    handles.add(
      agent.approvals$.subscribe((pending) => {
        for (const p of pending) queueMicrotask(() => agent.approve(p.callId))
      }),
    )
    const outcome = firstValueFrom(agent.outcome$(id))
    await lastValueFrom(agent.reply$(id))
    handles.unsubscribe()
    if ((await outcome).kind !== 'delivered' || text !== 'Removed it, as asked.')
      throw new Error(`turn ${turn}: ${JSON.stringify(await outcome)}, text ${JSON.stringify(text)}`)
    await agent.whenIdle()
    if (turn % block === 0) {
      const now = performance.now()
      perBlock.push(now - t0)
      t0 = now
    }
  }
  const count = (type: string) => agent.session.events.filter((e) => e.type === type).length
  const compactions = count('compaction')
  if (compactions < turns / 100) throw new Error(`only ${compactions} compactions ran`)
  const counts = `${count('approval/decision')} approvals, ${count('budget/pause')} budget pauses, ${compactions} compactions`
  await agent.dispose()
  return { blocks: perBlock, counts }
}

const gcHeapMb = (): number => {
  for (let i = 0; i < 3; i++) globalThis.gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}

/** Heap after GC at each of `at` turns, with `rollback(1)` after every second turn or none. */
const rollbackChild = async (rollbacks: boolean, at: readonly number[]): Promise<number[]> => {
  const { steerable } = await import('./lib/built.js')
  const answer = (): ModelEvent[] => [
    { type: 'text', text: 'An answer of a few words, as a short reply would be.' },
    { type: 'finish', reason: 'stop' },
  ]
  const agent = steerable.createAgent({ model: answer })
  const heaps: number[] = []
  const last = Math.max(...at)
  for (let turn = 1; turn <= last; turn++) {
    agent.followup(`prompt ${turn}, a sentence of ordinary length`)
    await agent.whenIdle()
    if (rollbacks && turn % 2 === 0) agent.rollback(1)
    if (at.includes(turn)) heaps.push(gcHeapMb())
  }
  if (!globalThis.gc) throw new Error('run with node --expose-gc')
  return heaps
}

const args = childArgs()
if (args?.[0] === 'handles') {
  // A session of 1,000 turns first, so the first measured block is not the JIT's warm-up.
  await handlesChild(1_000, 1_000)
  const { blocks, counts } = await handlesChild(TURNS, BLOCK)
  childDone({ value: [...blocks, counts] })
}
if (args?.[0] === 'rollbacks') childDone({ value: await rollbackChild(true, [2_000, TURNS]) })
if (args?.[0] === 'plain') childDone({ value: await rollbackChild(false, [2_000, TURNS / 2, TURNS]) })

const started = Date.now()
const script = fileURLToPath(import.meta.url)
const run = (name: string): (number | string)[] => {
  const r = inChild<{ value: (number | string)[] }>(script, [name], 1_800_000)
  progress(`growth: ${name} done`)
  return r?.value ?? []
}
// BENCH_GROWTH_PARTS=rollbacks measures the heap only (to compare two builds).
const parts = process.env.BENCH_GROWTH_PARTS?.split(',') ?? ['handles', 'rollbacks']
const handles = parts.includes('handles') ? run('handles') : []
const blocks = handles.filter((v): v is number => typeof v === 'number')
const counts = handles.find((v): v is string => typeof v === 'string') ?? '—'
const rolled = (parts.includes('rollbacks') ? run('rollbacks') : []) as number[]
const plain = (parts.includes('rollbacks') ? run('plain') : []) as number[]

const ms = (v: number | undefined) => (v === undefined ? '—' : `${v.toFixed(0)} ms`)
const mb = (v: number | undefined) => (v === undefined ? '—' : `${v.toFixed(1)} MB`)
const times = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined ? '—' : `${(a / b).toFixed(2)}×`
const k = (n: number) => n.toLocaleString('en-US')
const handleLines: (readonly [string, string, string])[] = [
  ...blocks.map((v, i) => [`handles: turns ${k(i * BLOCK + 1)}–${k((i + 1) * BLOCK)}`, ms(v), ''] as const),
  [`handles: last ${k(BLOCK)} ÷ first ${k(BLOCK)}`, times(blocks.at(-1), blocks[0]), 'flat (≈1×)'],
  [`handles: slowest ${k(BLOCK)} ÷ fastest`, times(Math.max(...blocks), Math.min(...blocks)), ''],
  ['handles: what the session did', counts, ''],
]
const lines: (readonly [string, string, string])[] = [
  ...(blocks.length > 0 ? handleLines : []),
  [`heap after ${k(2_000)} turns, a rollback every second`, mb(rolled[0]), ''],
  [`heap after ${k(2_000)} turns, no rollback`, mb(plain[0]), ''],
  [`heap after ${k(TURNS)} turns, a rollback every second`, mb(rolled[1]), ''],
  [`heap after ${k(TURNS)} turns, no rollback`, mb(plain[2]), ''],
  [`  ratio at ${k(TURNS)} turns`, times(rolled[1], plain[2]), '≤ 1.2×'],
  [`heap after ${k(TURNS / 2)} turns, no rollback (as many messages)`, mb(plain[1]), ''],
]
const header = ['measure', 'value', 'target'] as const
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
const line = (cells: readonly string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')

console.log('\ngrowth benchmark: a long session with every handle, and rollbacks (child process each, dist/)')
console.log(machineInfo())
console.log(`total time: ${((Date.now() - started) / 1000).toFixed(0)} s\n`)
console.log(line(header))
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'))
for (const l of lines) console.log(line(l))
