/**
 * R55, owner side: a send minted in another process is applied by the agent that drives the
 * session, under the sender's id, routed by this agent's window when it is applied; the options
 * the owner decides are decided then, and a refusal settles `refused` (journaled) instead of
 * throwing. The seam is library-internal (`steerable/postgres` uses it).
 */
import { describe, expect, it } from 'vitest'
import type { AgentMessageId } from '../../src/index.js'
import { mintMessageId } from '../../src/messages/mint.js'
import { extensionsOf } from '../../src/runtime/extensions.js'
import { gate, setup, texts } from '../support/agents.js'
import { journalStore } from '../support/journalStore.js'

const remote = (input: unknown, options: unknown = { target: 'next-step', wakeup: true }) => ({
  id: mintMessageId() as string,
  input,
  options,
})

describe('R55: applying a remote send', () => {
  it('R55, R4: a remote steer applied while a turn runs lands in that turn under the sender id', async () => {
    const g = gate()
    const { agent, model } = setup([g.reply, 'done'])
    agent.followup('first')
    await Promise.resolve()
    const send = remote('be brief')
    expect(extensionsOf(agent).acceptRemote(send)).toBe('accepted')
    expect(agent.inbox.outbox.map((i) => [i.message.id, i.placement])).toStrictEqual([[send.id, 'steering']])
    g.release('ok')
    await agent.whenIdle()
    expect(texts(model.requests[1]?.messages ?? []).at(-1)).toBe('be brief')
    expect(await agent.outcome(send.id as AgentMessageId)).toMatchObject({
      kind: 'delivered',
      as: 'steering',
    })
    await agent.dispose()
  })

  it('R55: a remote followup wakes an idle agent; the same id applied again is known, not sent twice', async () => {
    const { agent, model } = setup(['one', 'two'])
    const send = remote('hello', { target: 'next-turn', wakeup: true })
    expect(extensionsOf(agent).acceptRemote(send)).toBe('accepted')
    expect(extensionsOf(agent).acceptRemote(send)).toBe('known')
    await agent.whenIdle()
    expect(extensionsOf(agent).acceptRemote(send)).toBe('known')
    expect(model.requests).toHaveLength(1)
    await agent.dispose()
  })

  it("R55, R47: ifBusy 'reject' is decided when applied: refused, settled as data, journaled", async () => {
    const js = journalStore()
    const g = gate()
    const { agent } = setup([g.reply], { store: js.open() })
    agent.followup('first')
    await Promise.resolve()
    const send = remote('later', { target: 'next-turn', wakeup: true, ifBusy: 'reject' })
    expect(extensionsOf(agent).acceptRemote(send)).toBe('refused')
    const outcome = await agent.outcome(send.id as AgentMessageId)
    expect(outcome).toMatchObject({ kind: 'refused', error: { name: 'AgentBusyError' } })
    await agent.session.flush()
    expect(js.durable.records.at(-1)).toStrictEqual({ op: 'settle', id: send.id, outcome })
    expect(extensionsOf(agent).acceptRemote(send)).toBe('known')
    g.release('ok')
    await agent.dispose()
  })

  it('R55, R1: bad input or options are refused with the InvalidInputError as data; nothing enters', async () => {
    const { agent } = setup([])
    for (const send of [remote(42), remote('x', { target: 'sideways' })]) {
      expect(extensionsOf(agent).acceptRemote(send)).toBe('refused')
      const outcome = await agent.outcome(send.id as AgentMessageId)
      expect(outcome).toMatchObject({ kind: 'refused', error: { name: 'InvalidInputError' } })
    }
    expect(agent.inbox.queue).toStrictEqual([])
    await agent.dispose()
  })

  it('R57: a disposed agent applies nothing: the send is left for the next owner', async () => {
    const { agent } = setup([])
    await agent.dispose()
    const send = remote('late', { target: 'next-turn', wakeup: true })
    expect(extensionsOf(agent).acceptRemote(send)).toBe('stopped')
  })
})
