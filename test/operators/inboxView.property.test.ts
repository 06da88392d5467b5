/**
 * R41, R30: `inboxView()` over `events$` and `agent.inbox` always agree, over random sequences of
 * sends and inbox commands (what events cannot show — parked-ness, staged context — is left out
 * of the comparison, as `inboxView` documents).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Agent, createAgent, type InboxSnapshot, inboxConservation, inboxView } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

type Op =
  | { readonly kind: 'followup' | 'steer' | 'parked' | 'inject' | 'interrupt' }
  | { readonly kind: 'remove' | 'promote'; readonly pick: number }
  | { readonly kind: 'replace'; readonly pick: number }
  | { readonly kind: 'move'; readonly pick: number; readonly index: number }
  | { readonly kind: 'cancel'; readonly keepInbox: boolean }
  | { readonly kind: 'tick' }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constantFrom<Op>(
    { kind: 'followup' },
    { kind: 'steer' },
    { kind: 'parked' },
    { kind: 'inject' },
    { kind: 'interrupt' },
    { kind: 'tick' },
  ),
  fc.record({
    kind: fc.constantFrom('remove' as const, 'promote' as const, 'replace' as const),
    pick: fc.nat(20),
  }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat(20), index: fc.integer({ min: -1, max: 6 }) }),
  fc.record({ kind: fc.constant('cancel' as const), keepInbox: fc.boolean() }),
)

/** The inbox as events can show it: queue ids and texts, steering ids and texts. */
const shown = (inbox: InboxSnapshot) => ({
  queue: inbox.queue.map((i) => [i.message.id, JSON.stringify(i.message.content)]),
  steering: inbox.outbox
    .filter((i) => i.placement === 'steering')
    .map((i) => [i.message.id, JSON.stringify(i.message.content)]),
})

describe('inboxView()', () => {
  it('R41, R30: the fold of events$ agrees with agent.inbox after every call', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 30 }), async (ops) => {
        // Every model request hangs until cancelled, so turns stay open while the ops run.
        const agent: Agent = createAgent({
          model: scriptedModel(Array.from({ length: 40 }, () => ({ hang: true }))),
        })
        let view: InboxSnapshot | undefined
        const errors: unknown[] = []
        agent.events$
          .pipe(inboxConservation(), inboxView())
          .subscribe({ next: (v) => (view = v), error: (e) => errors.push(e) })
        const ids: string[] = []
        let n = 0
        for (const op of ops) {
          const id = ids[('pick' in op ? op.pick : 0) % Math.max(ids.length, 1)] as never
          try {
            switch (op.kind) {
              case 'followup':
                ids.push(agent.followup(`f${++n}`))
                break
              case 'steer':
                ids.push(agent.steer(`s${++n}`))
                break
              case 'parked':
                ids.push(agent.send(`p${++n}`, { target: 'next-turn', wakeup: false }))
                break
              case 'inject':
                ids.push(agent.inject(`i${++n}`))
                break
              case 'interrupt':
                ids.push(agent.followup(`x${++n}`, { ifBusy: 'interrupt' }))
                break
              case 'remove':
                if (id) agent.remove(id)
                break
              case 'promote':
                if (id) agent.promote(id)
                break
              case 'replace':
                if (id) agent.replace(id, `r${++n}`)
                break
              case 'move':
                if (id) agent.move(id, op.index)
                break
              case 'cancel':
                agent.cancel({ kind: 'user' }, { keepInbox: op.keepInbox })
                break
              case 'tick':
                await new Promise((r) => setTimeout(r, 0))
                break
            }
          } catch (error) {
            errors.push(error)
          }
          expect(shown(view ?? { queue: [], outbox: [] })).toEqual(shown(agent.inbox))
        }
        await agent.dispose()
        expect(errors).toEqual([])
      }),
      { numRuns: 150 },
    )
  }, 60_000)
})
