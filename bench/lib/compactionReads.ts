/**
 * What a compacted session costs to read (R74): `session.messages()` right after an event was
 * appended (so the frozen copy it shares until the next append cannot answer it), and one turn
 * (a followup until idle, the model reading its request's messages). A projection that walked
 * the whole log would cost in proportion to the log, not to the tail.
 *
 * The sessions are measured side by side in short rounds (a few calls each, subjects
 * alternating), and each figure is the median of the rounds: on a shared machine a long loop of
 * one subject is preempted more often than the figures differ.
 */
import { performance } from 'node:perf_hooks'
import type { ModelEvent, ModelRequest, SessionEvent } from '../../src/index.js'
import { steerable } from './built.js'
import { collect, median } from './report.js'

const OK: readonly ModelEvent[] = [
  { type: 'text', text: 'ok' },
  { type: 'finish', reason: 'stop' },
]

export type ReadCosts = { readonly messagesUs: number; readonly turnUs: number }

/** One round on one agent: µs per `messages()` after an untimed `inject()`, then µs per turn. */
const round = async (agent: ReturnType<typeof steerable.createAgent>, calls: number, n: number) => {
  let ms = 0
  for (let i = 0; i < calls; i++) {
    const before = agent.session.messages().length
    agent.inject(`a note ${n}.${i}`)
    const t0 = performance.now()
    const messages = agent.session.messages()
    ms += performance.now() - t0
    if (messages.length !== before + 1) throw new Error('messages() did not see the inject')
  }
  const t0 = performance.now()
  for (let i = 0; i < calls; i++) {
    agent.followup(`a question ${n}.${i}`)
    await agent.whenIdle()
  }
  const turnMs = performance.now() - t0
  return { messagesUs: (ms * 1000) / calls, turnUs: (turnMs * 1000) / calls }
}

/**
 * The read costs of agents opened on each of `histories`: `rounds` rounds of `calls` calls and
 * `calls` turns each, after `warmUp` rounds not counted; medians of the rounds.
 */
export const readCosts = async <K extends string>(
  histories: Record<K, readonly SessionEvent[]>,
  rounds: number,
  warmUp: number,
  calls: number,
): Promise<Record<K, ReadCosts>> => {
  const forms = Object.keys(histories) as K[]
  const seen = new Map<K, number>()
  const agents = forms.map((form) => ({
    form,
    agent: steerable.createAgent({
      history: histories[form],
      model: (request: ModelRequest) => {
        seen.set(form, request.messages.length) // reading them is what a provider adapter does
        return OK
      },
    }),
  }))
  const samples = new Map<K, ReadCosts[]>()
  collect()
  for (let r = 0; r < warmUp + rounds; r++)
    for (let i = 0; i < agents.length; i++) {
      const { form, agent } = agents[(i + r) % agents.length] as (typeof agents)[number]
      const costs = await round(agent, calls, r)
      if (r >= warmUp) samples.set(form, [...(samples.get(form) ?? []), costs])
    }
  for (const { form, agent } of agents) {
    // The requests read every message there is: the compacted view, not the log.
    if (seen.get(form) !== agent.session.messages().length - 1) throw new Error('unexpected request')
    await agent.dispose()
  }
  const result = {} as Record<K, ReadCosts>
  for (const form of forms) {
    const costs = samples.get(form) ?? []
    result[form] = {
      messagesUs: median(costs.map((c) => c.messagesUs)),
      turnUs: median(costs.map((c) => c.turnUs)),
    }
  }
  return result
}
