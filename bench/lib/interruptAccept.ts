/**
 * What `interrupt` costs a send: µs per accepted `steer(x, {interrupt: true})` against `steer(x)`,
 * sent while a turn is held open, measured as bench/accept.ts measures `followup()` (but in batches,
 * see `acceptSteers`). The turn
 * is held in a tool run, not in the model's answer: there both forms are staged alike (an
 * interrupting steer into a streamed answer would cut it, and the rest would land in the next
 * step), so the difference is what the option itself costs on the accept path.
 */
import { performance } from 'node:perf_hooks'
import { filter, firstValueFrom } from 'rxjs'
import { z } from 'zod'
import type { ModelEvent } from '../../src/index.js'
import { steerable } from './built.js'
import type { GcPauses } from './gcPauses.js'
import { collect } from './report.js'

/** `steer(x)`, `steer(x, {})` (what any options object costs) and `steer(x, {interrupt: true})`. */
export type SteerForm = 'plain' | 'empty' | 'interrupt'

const CALL: readonly ModelEvent[] = [
  { type: 'tool-call', id: 'c1', name: 'wait', arguments: '{}' },
  { type: 'finish', reason: 'tool-calls' },
]
const OK: readonly ModelEvent[] = [
  { type: 'text', text: 'ok' },
  { type: 'finish', reason: 'stop' },
]

/** An agent whose first turn waits in its one tool call until `release()`. */
const heldInTool = async () => {
  let release: () => void = () => {}
  const wait = steerable.defineTool({
    name: 'wait',
    description: 'Waits until released.',
    parameters: z.object({}),
    execute: () =>
      new Promise<string>((resolve) => {
        release = () => resolve('done')
      }),
  })
  let requests = 0
  const agent = steerable.createAgent({ tools: [wait], model: () => (++requests === 1 ? CALL : OK) })
  const started = firstValueFrom(agent.events$.pipe(filter((e) => e.type === 'agent/tool/start')))
  agent.followup('go')
  await started
  return { agent, release: () => release() }
}

/**
 * µs per steer for `batches` × `perBatch` steers of `form`, each batch into a fresh held turn
 * (only the steers are timed), and how many of those µs were GC pauses. Batches, not one run of
 * 100,000 as bench/accept.ts sends: staging a steer copies the staged list, so a turn that holds
 * tens of thousands of them makes each steer cost in proportion to them (40,000 in one turn took
 * 0.3 ms a steer), which would hide the option's cost.
 */
export const acceptSteers = async (
  form: SteerForm,
  batches: number,
  perBatch: number,
  gc: GcPauses,
): Promise<{ us: number; gcUs: number }> => {
  let ms = 0
  let gcMs = 0
  for (let b = 0; b < batches; b++) {
    const { agent, release } = await heldInTool()
    if (b === 0) collect()
    const t0 = performance.now()
    if (form === 'plain') for (let i = 0; i < perBatch; i++) agent.steer('a steering message')
    else if (form === 'empty') for (let i = 0; i < perBatch; i++) agent.steer('a steering message', {})
    else for (let i = 0; i < perBatch; i++) agent.steer('a steering message', { interrupt: true })
    const t1 = performance.now()
    agent.cancel({ kind: 'user' })
    release()
    await agent.whenIdle()
    await agent.dispose()
    await gc.settle()
    ms += t1 - t0
    gcMs += gc.within(t0, t1)
  }
  const n = batches * perBatch
  return { us: (ms * 1000) / n, gcUs: (gcMs * 1000) / n }
}
