/**
 * The run's summariser (R74, R75), on virtual time: each call follows the next plan of the
 * schedule's `summaries` (cyclic) and records what it was given, so the checks can tell that it
 * never saw a message the log did not hold yet.
 */
import { type Observable, of } from 'rxjs'
import type { Summarizer } from '../../../src/contracts/compaction.js'
import type { ContentBlock } from '../../../src/index.js'
import { type Env, failAfter, onAbort, tracked } from '../parts.js'
import type { SummaryPlan } from '../schedule.js'

const OK: SummaryPlan = { kind: 'ok', d: 0, as: 'string' }

/** A block a summary must not hold: a summary is text only. */
const NOT_TEXT: readonly ContentBlock[] = [{ type: 'tool-call', id: 'sx', name: 'ok', arguments: '{}' }]

/** The summary text of call `n`. */
export const summaryText = (n: number): string => `sum${n}`

const later = <T>(env: Env, d: number, value: T): Observable<T> =>
  d === 0 ? of(value) : env.cold(`${'-'.repeat(d)}(v|)`, { v: value })

export const buildSummarizer = (env: Env, plans: readonly SummaryPlan[]): Summarizer => {
  let calls = 0
  return (messages, { signal }) => {
    const n = ++calls
    const plan = plans.length === 0 ? OK : (plans[(n - 1) % plans.length] as SummaryPlan)
    const { log } = env
    log.history.summaries.push({
      n,
      plan,
      messages,
      position: log.timeline.length,
      durable: log.durable.length,
    })
    const text = summaryText(n)
    switch (plan.kind) {
      case 'throw':
        throw env.thrown(`summariser ${n} threw`)
      case 'hang':
        return tracked(
          log,
          onAbort<string>(signal, () => {}),
        )
      case 'error':
        return failAfter(env, plan.d, `summariser ${n} failed`)
      case 'empty':
        return later(env, plan.d, '')
      case 'nonText':
        return later(env, plan.d, NOT_TEXT)
      case 'ok':
        if (plan.as === 'pieces')
          return env.cold(`${'-'.repeat(plan.d)}a-(b|)`, { a: 'sum', b: `${n}` }) as Observable<string>
        return later(env, plan.d, plan.as === 'blocks' ? [{ type: 'text', text }] : text)
    }
  }
}
