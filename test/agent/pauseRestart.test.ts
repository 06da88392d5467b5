/**
 * A paused session across processes (R64, R65): `dispose()` of a paused agent, or a crash, leaves
 * the pause in the log, and the agent opened on the same store is paused on the same approvals,
 * with what waited in its inbox; a decision made there finishes the turn.
 */
import { filter, firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type Agent, createAgent, defineTool, type SessionEvent } from '../../src/index.js'
import { label, scriptedModel } from '../../src/testing.js'
import { journalStore } from '../support/journalStore.js'

const shellTool = (ran: string[]) =>
  defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters: z.object({ cmd: z.string() }),
    needsApproval: true,
    execute: ({ cmd }) => {
      ran.push(cmd)
      return `ran ${cmd}`
    },
  })
const call = (id: string, cmd: string) => ({ id, name: 'shell', arguments: JSON.stringify({ cmd }) })
const pausedOn = (agent: Agent) => firstValueFrom(agent.approvals$.pipe(filter((list) => list.length > 0)))
const results = (events: readonly SessionEvent[]) =>
  events.flatMap((e) => (e.type === 'tool/result' ? [e.data.result] : []))

/** A first process paused on `c1` and `c2`; `then` is what it does before it goes away. */
const pausedSession = async (
  then: (agent: Agent, store: ReturnType<typeof journalStore>) => Promise<void> | void,
) => {
  const store = journalStore()
  const ran: string[] = []
  const first = createAgent({
    model: scriptedModel([{ toolCalls: [call('c1', 'a'), call('c2', 'b')] }]),
    tools: [shellTool(ran)],
    store: store.open(),
  })
  first.followup('go')
  await pausedOn(first)
  await then(first, store)
  return { store, ran, first }
}

describe('R64/R65: a paused session reopens paused', () => {
  it('R65: after dispose() the reopened agent is paused on the same approvals and a decision finishes the turn', async () => {
    const { store, ran } = await pausedSession((agent) => agent.dispose())
    const ranAfter: string[] = []
    const second = createAgent({
      model: scriptedModel(['done']),
      tools: [shellTool(ranAfter)],
      store: store.open(),
    })
    expect(second.status).toBe('paused')
    expect(second.approvals.map((a) => a.callId)).toStrictEqual(['c1', 'c2'])
    second.approve('c1')
    second.deny('c2')
    await second.whenIdle()
    expect([ran, ranAfter]).toStrictEqual([[], ['a']])
    const labels = second.session.events.map(label)
    expect(labels.slice(labels.indexOf('approval/decision(approved)'))).toStrictEqual([
      'approval/decision(approved)',
      'tool/call(shell)',
      'tool/result(c1)',
      'approval/decision(denied)',
      'tool/call(shell)',
      'tool/result(c2,DENIED)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(done)',
      'step/end(1.2)',
      'turn/end(1,completed)',
    ])
    await second.dispose()
  })

  it('R62/R65: a denial made before the restart keeps its reason in the DENIED result written after it', async () => {
    const { store } = await pausedSession(async (agent) => {
      agent.deny('c2', { reason: 'not b' })
      await agent.dispose()
    })
    const second = createAgent({
      model: scriptedModel(['done']),
      tools: [shellTool([])],
      store: store.open(),
    })
    expect(second.approvals.map((a) => a.callId)).toStrictEqual(['c1'])
    second.approve('c1')
    await second.whenIdle()
    const denied = results(second.session.events).find((r) => r.toolCallId === 'c2')
    expect(denied?.code).toBe('DENIED')
    expect(JSON.stringify(denied?.content)).toContain('not b')
    await second.dispose()
  })

  it('R42/R64: context staged during the pause stays for the session that reopens it; its outcome never says unknown', async () => {
    let injected = ''
    const { store, first } = await pausedSession(async (agent) => {
      injected = agent.inject('look at the logs first')
      await agent.dispose()
    })
    // It waits in the journal for the next process: this one may leave it unsettled (as a
    // release does), but it never calls an id it returned unknown.
    const asked = await Promise.race([
      first.outcome(injected as never).then(
        () => 'settled',
        (error: unknown) => String(error),
      ),
      new Promise((resolve) => setImmediate(() => resolve('waiting'))),
    ])
    expect(asked).not.toMatch(/unknown id/)
    const second = createAgent({
      model: scriptedModel(['done']),
      tools: [shellTool([])],
      store: store.open(),
    })
    expect(second.inbox.outbox.map((i) => i.message.id)).toStrictEqual([injected])
    second.deny('c1')
    second.deny('c2')
    await second.whenIdle()
    expect(await second.outcome(injected as never)).toMatchObject({ kind: 'delivered' })
    await second.dispose()
  }, 10_000)

  it('R65/R51: after a crash the pause reopens with its queued followups and staged steering', async () => {
    const { store } = await pausedSession(async (agent, store) => {
      agent.followup('next task')
      agent.steer('prefer dry runs')
      await agent.session.flush()
      store.crash()
    })
    const second = createAgent({
      model: scriptedModel(['ok', 'next done']),
      tools: [shellTool([])],
      store: store.open(),
    })
    expect(second.status).toBe('paused')
    const texts = (items: readonly { message: { content: readonly unknown[] } }[]) =>
      items.map((i) => (i.message.content[0] as { text: string }).text)
    expect(texts(second.inbox.queue)).toStrictEqual(['next task'])
    expect(texts(second.inbox.outbox)).toStrictEqual(['prefer dry runs'])
    second.deny('c1')
    second.deny('c2')
    await second.whenIdle()
    const labels = second.session.events.map(label)
    expect(labels.slice(labels.indexOf('tool/result(c2,DENIED)'))).toStrictEqual([
      'tool/result(c2,DENIED)',
      'steering(prefer dry runs)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(ok)',
      'step/end(1.2)',
      'turn/end(1,completed)',
      'turn/start(2)',
      'user(next task)',
      'step/start(2.1)',
      'assistant(next done)',
      'step/end(2.1)',
      'turn/end(2,completed)',
    ])
    await second.dispose()
  })

  it('R65/R51/R21: context staged alone during a pause stays staged after a crash and enters after the results', async () => {
    const { store } = await pausedSession(async (agent, store) => {
      agent.inject('look at the logs first')
      await agent.session.flush()
      store.crash()
    })
    const second = createAgent({
      model: scriptedModel(['done']),
      tools: [shellTool([])],
      store: store.open(),
    })
    expect(second.inbox.outbox.map((i) => i.placement)).toStrictEqual(['context'])
    second.deny('c1')
    second.deny('c2')
    await second.whenIdle()
    const labels = second.session.events.map(label)
    expect(labels.slice(labels.indexOf('approval/request(shell)'))).toStrictEqual([
      'approval/request(shell)',
      'approval/request(shell)',
      'approval/decision(denied)',
      'tool/call(shell)',
      'tool/result(c1,DENIED)',
      'approval/decision(denied)',
      'tool/call(shell)',
      'tool/result(c2,DENIED)',
      'user(look at the logs first)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(done)',
      'step/end(1.2)',
      'turn/end(1,completed)',
    ])
    await second.dispose()
  })
})
