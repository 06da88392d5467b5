/**
 * The driver's `snapshots$`: for any schedule of the model-based suite (sends of every kind from
 * top level and from subscribers, cancels, inbox control, approvals, compactions and rollbacks,
 * hooks, tools and models that answer late, fail or hang, then `dispose()`), a subscriber from
 * the agent's creation receives exactly the states the reducer produced, in the order it
 * produced them, each once and the very object, then completes with the agent. Every handle of
 * the agent (`status$`, `inbox$`, `approvals$`, `text$`, `usage$`) is a view of that stream.
 */
import fc from 'fast-check'
import { expect, it } from 'vitest'
import type { Opening } from '../../src/agent/createAgent.js'
import { reduce } from '../../src/machine/reduce.js'
import type { DeliveryState } from '../../src/machine/state.js'
import { extensionsOf } from '../../src/runtime/extensions.js'
import { scheduleArb } from '../reliability/arbitrary.js'
import { historyScheduleArb } from '../reliability/history/arbitrary.js'
import { runSchedule } from '../reliability/run.js'

const runs = Number(process.env.SNAPSHOT_RUNS ?? 150)

it(`snapshots$ delivers exactly the states the reducer produced, in order, over ${runs} random schedules`, async () => {
  let states = 0
  await fc.assert(
    fc.asyncProperty(
      fc.oneof({ arbitrary: scheduleArb, weight: 2 }, historyScheduleArb),
      async (schedule) => {
        const produced: DeliveryState[] = []
        const recording: NonNullable<Opening['reduce']> = (state, input) => {
          const reduced = reduce(state, input)
          produced.push(reduced.state)
          return reduced
        }
        const seen: DeliveryState[] = []
        let completed = false
        let before = 0
        const { agent } = await runSchedule(schedule, {
          reduce: recording,
          // Subscribed as the agent is made, before any top-level call of the schedule.
          opened: (made) => {
            before = produced.length
            extensionsOf(made).snapshots$.subscribe({
              next: (s) => seen.push(s),
              complete: () => {
                completed = true
              },
            })
          },
        })
        await agent.dispose()
        // The first is the state at subscription: what the last reduction before it left.
        const expected = [before === 0 ? seen[0] : produced[before - 1], ...produced.slice(before)]
        expect(seen.length).toBe(expected.length)
        for (let i = 0; i < seen.length; i++) expect(seen[i]).toBe(expected[i])
        expect(completed).toBe(true)
        states += seen.length
      },
    ),
    { numRuns: runs },
  )
  // The schedules did reduce (else the comparison shows nothing).
  expect(states).toBeGreaterThan(runs * 10)
}, 180_000)
