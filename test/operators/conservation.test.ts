import { from } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { type AgentEvent, InvariantViolation, inboxConservation, outstandingInbox } from '../../src/index.js'
import { record } from '../support/agents.js'
import { createFor, scenarios } from '../support/scenarios.js'

describe('R30: FIFO conservation over many scenarios', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('R30: %s', async (_name, scenario) => {
    const agent = createFor(scenario)
    const rec = record(agent)
    const checked: AgentEvent[] = []
    const errors: unknown[] = []
    let completed = false
    agent.events$.pipe(inboxConservation()).subscribe({
      next: (e) => checked.push(e),
      error: (e) => errors.push(e),
      complete: () => {
        completed = true
      },
    })
    await scenario.run(agent)
    await agent.whenIdle()
    expect(errors).toEqual([])
    expect(checked).toEqual(rec.live)
    // Every enqueued id gets exactly one dequeue or discard.
    const enqueued = rec.live.flatMap((e) => (e.type === 'agent/inbox/enqueue' ? [e.message.id] : []))
    const settled = rec.live.flatMap((e) =>
      e.type === 'agent/inbox/dequeue'
        ? [e.message.id]
        : e.type === 'agent/inbox/discard'
          ? e.messages.map((m) => m.id)
          : [],
    )
    expect(new Set(settled).size).toBe(settled.length)
    for (const id of settled) expect(enqueued).toContain(id)
    const outstanding = outstandingInbox(rec.live)
    if (scenario.leavesInbox) expect(outstanding.size).toBe(1)
    else {
      expect(outstanding.size).toBe(0)
      expect([...settled].sort()).toEqual([...enqueued].sort())
    }
    if (rec.completed.events) expect(completed).toBe(true)
  })

  it('R30: the operator reports a violation on a forged stream (sanity check of the checker)', () => {
    const errors: unknown[] = []
    const message = { id: 'm1', content: [{ type: 'text', text: 'x' }], source: { kind: 'user' } }
    const forged = [{ type: 'agent/inbox/dequeue', agentId: 'a', message }] as unknown as AgentEvent[]
    from(forged)
      .pipe(inboxConservation())
      .subscribe({ error: (e) => errors.push(e) })
    expect(errors[0]).toBeInstanceOf(InvariantViolation)
    expect((errors[0] as InvariantViolation).rule).toBe('R30')
  })
})
