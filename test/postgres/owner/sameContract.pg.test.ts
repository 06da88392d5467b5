/**
 * R60: the contract of sections 1–12 does not depend on where the session lives. Every scenario
 * of the invariant library (test/support/scenarios.ts) runs twice, on the default store and on a session
 * in PostgreSQL (under its lease): the live events and the durable events must be the same, up to
 * the ids each run mints, and FIFO conservation (R30) holds on both. The session in PostgreSQL
 * then opens again and rebuilds the same conversation (R37).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Agent,
  type AgentEvent,
  createAgent,
  inboxConservation,
  type SessionStore,
} from '../../../src/index.js'
import { migrate, openPostgresSession } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { type Scenario, scenarios } from '../../support/scenarios.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

/** Replaces each id a run minted (messages', the agent's) by its order of first appearance. */
const withOrdinalIds = (value: unknown): unknown => {
  const ids = new Map<string, string>()
  return JSON.parse(JSON.stringify(value), (key, v: unknown) => {
    if ((key !== 'id' && key !== 'agentId') || typeof v !== 'string') return v
    if (!ids.has(v)) ids.set(v, `id${ids.size + 1}`)
    return ids.get(v)
  })
}

type Run = { readonly live: AgentEvent[]; readonly durable: unknown[]; readonly violations: unknown[] }

const run = async (scenario: Scenario, store?: SessionStore): Promise<{ run: Run; agent: Agent }> => {
  const agent = createAgent({
    ...scenario.options,
    model: scriptedModel(scenario.script),
    ...(store && { store }),
  })
  const live: AgentEvent[] = []
  const durable: unknown[] = []
  const violations: unknown[] = []
  agent.events$.subscribe((e) => live.push(e))
  agent.transcript$.subscribe((e) => durable.push(e))
  agent.events$.pipe(inboxConservation()).subscribe({ error: (e: unknown) => violations.push(e) })
  await scenario.run(agent)
  await agent.whenIdle()
  await agent.session.flush()
  return { run: { live, durable, violations }, agent }
}

describe('R60: every scenario behaves the same on a session in PostgreSQL', () => {
  it.each(scenarios.map((s, i) => [s.name, s, i] as const))('R60, R30: %s', async (_name, scenario, i) => {
    const local = await run(scenario)
    await local.agent.dispose()

    const sessionId = `same-contract-${i}`
    const store = await openPostgresSession(db.pool, sessionId)
    await store.takeLease()
    const remote = await run(scenario, store)
    const messages = remote.agent.session.messages()
    await remote.agent.dispose()
    // dispose() closes the store without waiting for its lease to go: reopening at once could
    // find the session still locked by this very process.
    await store.release()

    expect(remote.run.violations).toEqual([])
    expect(local.run.violations).toEqual([])
    expect(withOrdinalIds(remote.run.live)).toEqual(withOrdinalIds(local.run.live))
    expect(withOrdinalIds(remote.run.durable)).toEqual(withOrdinalIds(local.run.durable))
    // Not vacuous: each scenario published something (one cancels before anything is durable).
    expect(remote.run.live.length).toBeGreaterThan(0)

    // R37 across processes: what PostgreSQL holds rebuilds the same conversation.
    const reopened = await openPostgresSession(db.pool, sessionId)
    await reopened.takeLease()
    const again = createAgent({ model: scriptedModel([]), store: reopened })
    expect(again.session.messages()).toEqual(messages)
    await again.dispose()
  })
})
