/**
 * Tool approvals (docs/contract.md section 14, R61–R67): what a pause costs a turn, what a paused
 * agent holds, and how a decision reaches many `approvals$` subscribers. steerable only (the peer
 * has no approvals); prints its own table.
 *
 * - turn cost: TURNS turns of two steps each (the model asks for one call of a tool, the tool
 *   answers at once, the model answers 'ok'), a fresh agent every 100 turns (creating it is not
 *   timed), after warm-up, as bench/turns.ts. The same tool without `needsApproval` (the plain
 *   turn), and with `needsApproval: true`, approved at once: by an `approvals$` subscriber, in its
 *   callback; by the caller, who awaits the paused list (`firstValueFrom(approvals$.pipe(filter))`,
 *   as the README does) and then approves; and by the subscriber again, with `approvalTimeoutMs`
 *   set (a timer started and cleared per call). Medians of RUNS runs; each ratio divides two
 *   medians of the same runs.
 * - heap per agent: AGENTS agents, each kept open after what it did, `heapUsed` after a full GC,
 *   after minus before, ÷ AGENTS (as bench/agents.ts). Paused on k = 1 and k = 4 pending approvals
 *   (one step asking for k calls of a tool that needs approval), against the same agents idle
 *   after the same turn with a tool that needs none (the k calls ran, the model answered). A child
 *   process per figure; medians of RUNS children.
 * - `approvals$` fan-out: one agent paused on one approval, SUBSCRIBERS subscribers of its
 *   `approvals$` (the time to subscribe them: each gets the current list at once), then
 *   `approve()`: the time until the last subscriber has the new (empty) list, and until the agent
 *   is idle, beside the same agent with no subscriber. REPEATS repetitions after warm-up, in a
 *   child process each run; medians.
 *
 * `node --expose-gc --import tsx bench/approvals.ts` (or `BENCH_ONLY=approvals npm run bench`).
 */
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { filter, firstValueFrom } from 'rxjs'
import { z } from 'zod'
import type { Agent, ModelEvent, ModelRequest, ToolDefinition } from '../src/index.js'
import { steerable } from './lib/built.js'
import { childArgs, childDone, inChild } from './lib/children.js'
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

const TURNS = Number(process.env.BENCH_TURNS ?? 10_000)
const PER_AGENT = 100
const WARM = 2_000
const WARM_AFTER_GC = 4_000
const TURN_RUNS = Number(process.env.BENCH_RUNS ?? 5)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const AGENTS = Number(process.env.BENCH_PAUSED_AGENTS ?? 10_000)
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1_000)
const REPEATS = 30
const REPEAT_WARM = 10
/** Long enough never to fire during a run: the timer is only started and cleared. */
const TIMEOUT_MS = 3_600_000

const { createAgent, defineTool } = steerable

const ARGS = '{"cmd":"ls"}'
const tool = (needsApproval: boolean): ToolDefinition =>
  defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters: z.object({ cmd: z.string() }),
    needsApproval,
    execute: ({ cmd }) => `ran ${cmd}`,
  }) as ToolDefinition
const PLAIN_TOOLS = [tool(false)]
const GATED_TOOLS = [tool(true)]

const OK: readonly ModelEvent[] = [
  { type: 'text', text: 'ok' },
  { type: 'finish', reason: 'stop' },
]

/**
 * A model that asks for `k` calls of the tool, then, once their results are in, answers 'ok'.
 * `fresh`: a new id per call (many turns on one agent); else the ids c1…ck, shared by every agent
 * (one turn each), like the shared answer of bench/lib/minimal.ts.
 */
const toolModel = (k: number, fresh: boolean) => {
  let n = 0
  const shared: readonly ModelEvent[] = [
    ...Array.from(
      { length: k },
      (_, i): ModelEvent => ({
        type: 'tool-call',
        id: `c${i + 1}`,
        name: 'shell',
        arguments: ARGS,
      }),
    ),
    { type: 'finish', reason: 'tool-calls' },
  ]
  return (request: ModelRequest): readonly ModelEvent[] => {
    if (request.messages.at(-1)?.role === 'tool') return OK
    if (!fresh) return shared
    return [
      { type: 'tool-call', id: `c${++n}`, name: 'shell', arguments: ARGS },
      { type: 'finish', reason: 'tool-calls' },
    ]
  }
}

const pausedOn = (agent: Agent, k: number) =>
  firstValueFrom(agent.approvals$.pipe(filter((list) => list.length === k)))

// 1. Turn cost.

type Variant = 'plain' | 'subscriber' | 'awaited' | 'timer'
const VARIANTS: readonly Variant[] = ['plain', 'subscriber', 'awaited', 'timer']

/** A fresh agent of the variant and its turn. */
const harness = (variant: Variant) => {
  const model = toolModel(1, true)
  return () => {
    const agent = createAgent({
      model,
      tools: variant === 'plain' ? PLAIN_TOOLS : GATED_TOOLS,
      ...(variant === 'timer' ? { approvalTimeoutMs: TIMEOUT_MS } : {}),
    })
    if (variant === 'subscriber' || variant === 'timer')
      agent.approvals$.subscribe((list) => {
        for (const pending of list) agent.approve(pending.callId)
      })
    const turn =
      variant === 'awaited'
        ? async () => {
            agent.followup('a question')
            const [pending] = await pausedOn(agent, 1)
            if (pending) agent.approve(pending.callId)
            await agent.whenIdle()
          }
        : () => {
            agent.followup('a question')
            return agent.whenIdle()
          }
    return { agent, turn }
  }
}

type PerTurn = { readonly wall: number; readonly cpu: number }

/**
 * µs per turn, a fresh agent every PER_AGENT turns: the wall clock, and the process's CPU time
 * (user + system, GC threads included), which the other tenants of a shared machine do not add to.
 */
const turns = async (make: ReturnType<typeof harness>, count: number): Promise<PerTurn> => {
  let wall = 0
  let cpu = 0
  for (let done = 0; done < count; done += PER_AGENT) {
    const { agent, turn } = make()
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    for (let i = 0; i < PER_AGENT; i++) await turn()
    wall += performance.now() - t0
    const c1 = process.cpuUsage(c0)
    cpu += (c1.user + c1.system) / 1000
    if (agent.status !== 'idle' || agent.approvals.length > 0) throw new Error('bench: a turn did not end')
    await agent.dispose()
  }
  return { wall: (wall * 1000) / count, cpu: (cpu * 1000) / count }
}

const turnCost = async (): Promise<Map<Variant, PerTurn[]>> => {
  const makers = new Map(VARIANTS.map((v) => [v, harness(v)] as const))
  const us = new Map<Variant, PerTurn[]>()
  for (const v of VARIANTS) await turns(makers.get(v) as ReturnType<typeof harness>, WARM)
  for (let run = 1; run <= TURN_RUNS; run++) {
    for (const v of rotated(VARIANTS, run)) {
      const make = makers.get(v) as ReturnType<typeof harness>
      // As bench/turns.ts: a full GC, then turns to re-optimize, then the timed turns.
      collect()
      await turns(make, WARM_AFTER_GC)
      appendTo(us, v, await turns(make, TURNS))
    }
    progress(`approvals, turn cost: run ${run}/${TURN_RUNS}`)
  }
  return us
}

// 2. Heap per agent (a child process each).

type HeapCase = 'idle-short' | 'idle' | 'paused' | 'paused-timer'

const heapChild = async (what: HeapCase, k: number): Promise<number> => {
  const model = what === 'idle-short' ? () => OK : toolModel(k, false)
  const tools = what === 'idle' ? PLAIN_TOOLS : what === 'idle-short' ? [] : GATED_TOOLS
  const options = { model, tools, ...(what === 'paused-timer' ? { approvalTimeoutMs: TIMEOUT_MS } : {}) }
  const kept: Agent[] = new Array(AGENTS)
  collect()
  const heap0 = process.memoryUsage().heapUsed
  for (let i = 0; i < AGENTS; i++) {
    const agent = createAgent(options)
    if (what === 'paused' || what === 'paused-timer') {
      const pause = pausedOn(agent, k)
      agent.followup('a short question')
      await pause
    } else {
      agent.followup('a short question')
      await agent.whenIdle()
    }
    kept[i] = agent
  }
  collect()
  const heap1 = process.memoryUsage().heapUsed
  const paused = what === 'paused' || what === 'paused-timer'
  for (const agent of kept)
    if (agent.status !== (paused ? 'paused' : 'idle') || agent.approvals.length !== (paused ? k : 0))
      throw new Error(`bench: an agent is ${agent.status} with ${agent.approvals.length} approvals`)
  return (heap1 - heap0) / AGENTS
}

// 3. approvals$ fan-out (a child process each run).

type FanOut = {
  readonly subscribeMs: number
  readonly reachMs: number
  readonly approveReturnsMs: number
  readonly idleMs: number
  readonly idleAloneMs: number
  /** Whether every subscriber had the new list when `approve()` returned. */
  readonly synchronous: boolean
}

const fanOutOnce = async (subscribers: number) => {
  const agent = createAgent({ model: toolModel(1, true), tools: GATED_TOOLS })
  agent.followup('a question')
  const [pending] = await pausedOn(agent, 1)
  if (!pending) throw new Error('bench: no pending approval')
  let reached = 0
  let reachedAt = Number.NaN
  const subscriptions = new Array(subscribers)
  const s0 = performance.now()
  for (let i = 0; i < subscribers; i++)
    subscriptions[i] = agent.approvals$.subscribe((list) => {
      if (list.length === 0 && ++reached === subscribers) reachedAt = performance.now()
    })
  const s1 = performance.now()
  const t0 = performance.now()
  agent.approve(pending.callId)
  const t1 = performance.now()
  const synchronous = reached === subscribers
  await agent.whenIdle()
  const t2 = performance.now()
  for (const s of subscriptions) s.unsubscribe()
  await agent.dispose()
  if (subscribers > 0 && reached !== subscribers)
    throw new Error(`bench: ${reached} of ${subscribers} reached`)
  return {
    subscribeMs: s1 - s0,
    reachMs: reachedAt - t0,
    approveReturnsMs: t1 - t0,
    idleMs: t2 - t0,
    synchronous,
  }
}

const fanOutChild = async (): Promise<FanOut> => {
  for (let i = 0; i < REPEAT_WARM; i++) {
    await fanOutOnce(SUBSCRIBERS)
    await fanOutOnce(0)
  }
  collect()
  const samples: Awaited<ReturnType<typeof fanOutOnce>>[] = []
  const alone: number[] = []
  for (let i = 0; i < REPEATS; i++) {
    samples.push(await fanOutOnce(SUBSCRIBERS))
    alone.push((await fanOutOnce(0)).idleMs)
  }
  const m = (pick: (x: (typeof samples)[number]) => number) => median(samples.map(pick))
  return {
    subscribeMs: m((x) => x.subscribeMs),
    reachMs: m((x) => x.reachMs),
    approveReturnsMs: m((x) => x.approveReturnsMs),
    idleMs: m((x) => x.idleMs),
    idleAloneMs: median(alone),
    synchronous: samples.every((x) => x.synchronous),
  }
}

const args = childArgs()
if (args) {
  if (args[0] === 'fanout') childDone(await fanOutChild())
  childDone({ value: await heapChild(args[0] as HeapCase, Number(args[1])) })
}

// The parent: the turn cost here, the rest in children; then the table.

const script = fileURLToPath(import.meta.url)
const started = Date.now()
const turnUs = await turnCost()

const HEAP_CASES: readonly (readonly [HeapCase, number])[] = [
  ['idle-short', 0],
  ['idle', 1],
  ['paused', 1],
  ['paused-timer', 1],
  ['idle', 4],
  ['paused', 4],
  ['paused-timer', 4],
]
const heap = new Map<string, number[]>()
const fanOuts: FanOut[] = []
for (let run = 1; run <= RUNS; run++) {
  for (const [what, k] of rotated(HEAP_CASES, run)) {
    const r = inChild<{ value: number }>(script, [what, String(k)])
    if (r) appendTo(heap, `${what}/${k}`, r.value)
  }
  const f = inChild<FanOut>(script, ['fanout'])
  if (f) fanOuts.push(f)
  progress(`approvals, heap and fan-out: run ${run}/${RUNS}`)
}

/** A row of the table: the measure, its median, what it is compared with, how many runs. */
type Line = readonly [measure: string, value: string, compared: string, runs: string]
const section = (title: string): Line => [`[${title}]`, '', '', '']
const cell = (value: number, unit: Unit) => fmtCell({ value }, unit)
const times = (r: number) => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`
const kib = (bytes: number) => `${bytes >= 0 ? '+' : '−'}${cell(Math.abs(bytes) / 1024, 'KiB')}`
const count = (x: number) => x.toLocaleString('en-US')

const turnMedian = (v: Variant, pick: (x: PerTurn) => number) => median((turnUs.get(v) ?? []).map(pick))
const turnLines = (v: Variant, measure: string): Line[] => {
  const runs = String(turnUs.get(v)?.length ?? 0)
  const line = (label: string, pick: (x: PerTurn) => number): Line => {
    const us = turnMedian(v, pick)
    const compared = v === 'plain' ? '' : `${times(us / turnMedian('plain', pick))} the plain turn`
    return [label, cell(us, 'µs'), compared, runs]
  }
  return [line(`  ${measure}`, (x) => x.wall), line('    its CPU time (user + system)', (x) => x.cpu)]
}

const heapMedian = (what: HeapCase, k: number) => median(heap.get(`${what}/${k}`) ?? [])
const heapLine = (what: HeapCase, k: number, measure: string): Line => {
  const bytes = heapMedian(what, k)
  const extra = bytes - heapMedian('idle', k)
  const compared = what.startsWith('paused')
    ? `${kib(extra)} (${kib(extra / k)} per pending approval) vs idle after the same turn`
    : ''
  return [`  ${measure}`, cell(bytes / 1024, 'KiB'), compared, String(heap.get(`${what}/${k}`)?.length ?? 0)]
}
/** What one more pending approval adds (paused on 4 against 1), beside one more call that ran. */
const perCall = (what: HeapCase) => (heapMedian(what, 4) - heapMedian(what, 1)) / 3

const fan = (pick: (f: FanOut) => number) => median(fanOuts.map(pick))
const fanLine = (measure: string, ms: number, compared: string): Line => [
  `  ${measure}`,
  cell(ms, 'ms'),
  compared,
  String(fanOuts.length),
]
const perSubscriber = (ms: number) => `${cell((ms * 1000) / SUBSCRIBERS, 'µs')} per subscriber`
const n = count(SUBSCRIBERS)

const lines: Line[] = [
  section(`turn cost: ${count(TURNS)} turns of one tool call each, a fresh agent every ${PER_AGENT} turns`),
  ...turnLines('plain', 'the tool without needsApproval (the plain turn)'),
  ...turnLines('subscriber', 'needsApproval, approved at once by an approvals$ subscriber'),
  ...turnLines('awaited', 'needsApproval, the pause awaited (firstValueFrom), then approved'),
  ...turnLines('timer', 'needsApproval + approvalTimeoutMs, approved by a subscriber'),
  section(`heap per agent: ${count(AGENTS)} agents kept open, after GC (child process each)`),
  heapLine('idle-short', 0, 'idle after one short text turn (as agents.ts)'),
  heapLine('idle', 1, 'idle after a turn of 1 tool call (it ran unasked)'),
  heapLine('paused', 1, 'paused on 1 pending approval'),
  heapLine('paused-timer', 1, 'paused on 1, approvalTimeoutMs set (a timer)'),
  heapLine('idle', 4, 'idle after a turn of 4 tool calls (they ran unasked)'),
  heapLine('paused', 4, 'paused on 4 pending approvals'),
  heapLine('paused-timer', 4, 'paused on 4, approvalTimeoutMs set (4 timers)'),
  [
    '  one more call, paused on 4 against paused on 1, ÷ 3',
    cell(perCall('paused') / 1024, 'KiB'),
    `idle after 4 calls against 1, ÷ 3: ${cell(perCall('idle') / 1024, 'KiB')}`,
    '',
  ],
  section(`approvals$ fan-out: ${n} subscribers of one paused agent (child process each run)`),
  fanLine(
    `subscribe ${n} subscribers (each gets the list at once)`,
    fan((f) => f.subscribeMs),
    perSubscriber(fan((f) => f.subscribeMs)),
  ),
  fanLine(
    `approve() → the last of ${n} subscribers has the new list`,
    fan((f) => f.reachMs),
    `${perSubscriber(fan((f) => f.reachMs))}; ${
      fanOuts.every((f) => f.synchronous)
        ? 'all before approve() returns'
        : 'not all before approve() returns'
    }`,
  ),
  fanLine(
    'approve() returns',
    fan((f) => f.approveReturnsMs),
    '',
  ),
  fanLine(
    `approve() → idle (the call runs, step 2, turn end), ${n} subscribers`,
    fan((f) => f.idleMs),
    `${times(fan((f) => f.idleMs) / fan((f) => f.idleAloneMs))} with no subscriber`,
  ),
  fanLine(
    'approve() → idle, no subscriber',
    fan((f) => f.idleAloneMs),
    '',
  ),
]

/** Columns padded to their widest cell; figures right-aligned. */
const printTable = (header: readonly string[], rows: readonly (readonly string[])[]): void => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 1 || i === 3 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join(' | ')
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'))
  for (const row of rows) console.log(line(row))
}

console.log('\napprovals benchmark (steerable only, dist/)')
console.log(machineInfo())
console.log(`total time: ${((Date.now() - started) / 1000).toFixed(0)} s\n`)
printTable(['measure', 'median', 'compared', 'runs'], lines)
console.log(
  [
    '',
    `Turn cost: medians of ${TURN_RUNS} runs of ${count(TURNS)} turns; each ratio divides two medians of the same runs.`,
    `Heap: medians of ${RUNS} child processes. Fan-out: medians of ${REPEATS} repetitions in each of ${RUNS} children, then of the children.`,
    'Targets: a turn approved at once ≤ 1.5× the plain turn; a paused agent within 2 KiB per pending approval of the idle one.',
  ].join('\n'),
)
