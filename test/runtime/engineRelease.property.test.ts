/**
 * The driver releases its engine whenever the agent is quiescent with nothing in flight, and
 * builds it again on the next input. The property: under any schedule of the model-based suite
 * (sends of every kind, cancels, inbox control, compactions and rollbacks, reentrant subscribers,
 * hooks, tools, models and summarisers that answer late, fail or hang, then `dispose()`), with a store whose flushes take virtual time and
 * every third of which fails, an agent that releases runs exactly as one that never does: the
 * same live and durable events at the same virtual frames, the same promises settled the same
 * way, the same problems found.
 */
import fc from 'fast-check'
import { map, mergeMap, throwError, timer } from 'rxjs'
import type { TestScheduler } from 'rxjs/testing'
import { expect, it } from 'vitest'
import type { Agent, SessionStore } from '../../src/index.js'
import { extensionsOf } from '../../src/runtime/extensions.js'
import { scheduleArb } from '../reliability/arbitrary.js'
import { historyScheduleArb } from '../reliability/history/arbitrary.js'
import type { Log } from '../reliability/log.js'
import { runSchedule } from '../reliability/run.js'

const runs = Number(process.env.RELEASE_RUNS ?? 150)

/** Message ids (ULIDs) differ from run to run: each is named by its order of first appearance. */
const ULID = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g
/**
 * Any value as text, without calling a getter or trusting a proxy (the schedules' thrown values and
 * malformed events are hostile). An error's `stack` is left out: it names the calls the error
 * passed through, which differ where an engine was rebuilt.
 */
const text = (value: unknown, seen: Set<object> = new Set()): string => {
  try {
    if (typeof value === 'string') return JSON.stringify(value)
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value)
    if (typeof value === 'function') return 'function'
    if (seen.has(value)) return '<cycle>'
    seen.add(value)
    const parts = Reflect.ownKeys(value)
      .filter((key) => key !== 'stack')
      .map((key) => {
        const d = Object.getOwnPropertyDescriptor(value, key)
        return `${String(key)}:${d && 'value' in d ? text(d.value, seen) : '<getter>'}`
      })
    seen.delete(value)
    return `${Array.isArray(value) ? '[' : '{'}${parts.join(',')}${Array.isArray(value) ? ']' : '}'}`
  } catch {
    return '<unreadable>'
  }
}

const normalised = (log: Log): string => {
  const names = new Map<string, string>()
  const run = text({
    timeline: log.timeline,
    promises: log.promises.map((p) => [p.what, p.settled]),
    problems: log.problems,
  })
  return run.replace(ULID, (id) => {
    let name = names.get(id)
    if (name === undefined) {
      name = `id${names.size + 1}`
      names.set(id, name)
    }
    return name
  })
}

/** Flushes that take three frames; every third one fails (a store failure is an event, R36, R40). */
const slowStore =
  () =>
  (scheduler: TestScheduler): SessionStore => {
    let flushes = 0
    return {
      load: () => [],
      append: () => {},
      flush: () =>
        ++flushes % 3 === 0
          ? timer(3, scheduler).pipe(mergeMap(() => throwError(() => new Error('disk full'))))
          : timer(3, scheduler).pipe(map(() => undefined)),
    }
  }

const buildsOf = (agent: Agent): number => extensionsOf(agent).engineBuilds

it(`an agent that releases its engine whenever quiescent runs ${runs} random schedules exactly as one that never does`, async () => {
  let releases = 0
  await fc.assert(
    // A third of the schedules also compact and roll back (R74–R77): a compaction phase is work in
    // flight too, and its checkpoint flush takes virtual time here.
    fc.asyncProperty(
      fc.oneof({ arbitrary: scheduleArb, weight: 2 }, historyScheduleArb),
      async (schedule) => {
        const releasing = await runSchedule(schedule, { store: slowStore() })
        const keeping = await runSchedule(schedule, { store: slowStore(), release: false })
        expect(normalised(releasing.log)).toBe(normalised(keeping.log))
        expect(buildsOf(keeping.agent)).toBe(1)
        releases += buildsOf(releasing.agent) - 1
      },
    ),
    { numRuns: runs },
  )
  // Releases did happen between the inputs of these schedules (else the comparison shows nothing).
  expect(releases).toBeGreaterThan(runs)
}, 180_000)
