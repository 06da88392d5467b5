/**
 * What compaction costs a send (R74–R76): µs per accepted `followup()` or `steer()` while a turn
 * is held in a tool run, measured as bench/lib/interruptAccept.ts measures steers (batches of
 * sends into fresh held turns, only the sends timed, GC pauses inside the loop counted). Three
 * agents on the same 1,000-turn history: without the `compaction` option, with it, and with a
 * `compaction` event at the end of the history.
 */
import { performance } from 'node:perf_hooks'
import { filter, firstValueFrom } from 'rxjs'
import { z } from 'zod'
import type { ModelEvent } from '../../src/index.js'
import { steerable } from './built.js'
import type { GcPauses } from './gcPauses.js'
import { compactedTurns, turns } from './longHistory.js'
import { collect } from './report.js'

export type AgentForm = 'plain' | 'option' | 'compacted'
export type SendKind = 'followup' | 'steer'

const HISTORY_TURNS = 1_000
const plainHistory = turns(HISTORY_TURNS)
const compactedHistory = compactedTurns(HISTORY_TURNS, 1)
/** Set, but never reached by these turns: the option's presence is what is measured. */
const COMPACTION = { whenInputTokensExceed: 1_000_000_000, keepLastTurns: 2 }

const CALL: readonly ModelEvent[] = [
  { type: 'tool-call', id: 'c1', name: 'wait', arguments: '{}' },
  { type: 'finish', reason: 'tool-calls' },
]
const OK: readonly ModelEvent[] = [
  { type: 'text', text: 'ok' },
  { type: 'finish', reason: 'stop' },
]

/** An agent of `form` whose first turn waits in its one tool call until `release()`. */
const heldInTool = async (form: AgentForm) => {
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
  const agent = steerable.createAgent({
    tools: [wait],
    model: () => (++requests === 1 ? CALL : OK),
    history: form === 'compacted' ? compactedHistory : plainHistory,
    ...(form === 'option' ? { compaction: COMPACTION } : {}),
  })
  const started = firstValueFrom(agent.events$.pipe(filter((e) => e.type === 'agent/tool/start')))
  agent.followup('go')
  await started
  return { agent, release: () => release() }
}

/** µs per send for `batches` × `perBatch` sends of `kind` into agents of `form`, and the GC's share. */
export const acceptSends = async (
  form: AgentForm,
  kind: SendKind,
  batches: number,
  perBatch: number,
  gc: GcPauses,
): Promise<{ us: number; gcUs: number }> => {
  let ms = 0
  let gcMs = 0
  for (let b = 0; b < batches; b++) {
    const { agent, release } = await heldInTool(form)
    if (b === 0) collect()
    const t0 = performance.now()
    if (kind === 'followup') for (let i = 0; i < perBatch; i++) agent.followup('a followup message')
    else for (let i = 0; i < perBatch; i++) agent.steer('a steering message')
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
