/** R77 through the public API: rollback undoes turns of the messages, never of the log or the inbox. */

import { first, firstValueFrom, last, NEVER, of } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createAgent } from '../../src/agent/createAgent.js'
import { AgentBusyError, InvalidInputError } from '../../src/contracts/errors.js'
import type { SessionEvent } from '../../src/contracts/events.js'
import type { Message } from '../../src/contracts/messages.js'
import type { ModelEvent } from '../../src/contracts/model.js'
import { projectMessages, surfaceMessages } from '../../src/index.js'

const texts = (messages: readonly Message[]) =>
  messages.map((m) => `${m.role}:${m.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('')}`)

/** Answers each prompt with `re:<prompt>`. */
const echoAgent = (history?: readonly SessionEvent[]) =>
  createAgent({
    model: (req): ModelEvent[] => {
      const lastUser = [...req.messages].reverse().find((m) => m.role === 'user')
      const said = lastUser?.content[0]?.type === 'text' ? lastUser.content[0].text : '?'
      return [
        { type: 'text', text: `re:${said}` },
        { type: 'finish', reason: 'stop' },
      ]
    },
    ...(history ? { history } : {}),
  })

const threeTurns = async () => {
  const agent = echoAgent()
  const ids = [agent.followup('one'), agent.followup('two'), agent.followup('three')]
  await agent.whenIdle()
  return { agent, ids }
}

describe('R77: rollback', () => {
  it('R77: rollback(1) drops the last turn from the messages; the log keeps it; the next turn is numbered on', async () => {
    const { agent } = await threeTurns()
    const before = agent.session.events.length
    agent.rollback(1)
    expect(texts(agent.session.messages())).toEqual([
      'user:one',
      'assistant:re:one',
      'user:two',
      'assistant:re:two',
    ])
    expect(agent.session.events.length).toBe(before + 1)
    expect(agent.session.events.at(-1)).toMatchObject({ type: 'rollback', data: { toTurn: 2 } })
    agent.followup('four')
    await agent.whenIdle()
    expect(texts(agent.session.messages()).slice(-2)).toEqual(['user:four', 'assistant:re:four'])
    expect(agent.session.events.filter((e) => e.type === 'turn/start').map((e) => e.data.turn)).toEqual([
      1, 2, 3, 4,
    ])
  })

  it('R77: rollback counts the turns the messages hold now, so a second rollback undoes the turns before the first', async () => {
    const { agent } = await threeTurns()
    agent.rollback(1)
    agent.followup('four')
    await agent.whenIdle()
    agent.rollback(2) // turns 4 and 2 (turn 3 is undone already)
    expect(texts(agent.session.messages())).toEqual(['user:one', 'assistant:re:one'])
    agent.rollback(1)
    expect(agent.session.messages()).toEqual([])
    expect(() => agent.rollback(1)).toThrow(InvalidInputError)
  })

  it('R77: outcomes of ids in undone turns stay delivered, marked rolledBack', async () => {
    const { agent, ids } = await threeTurns()
    agent.rollback(2)
    expect(await agent.outcome(ids[0] as never)).toEqual({
      kind: 'delivered',
      as: 'prompt',
      turn: 1,
      seq: expect.any(Number),
    })
    expect(await agent.outcome(ids[2] as never)).toMatchObject({
      kind: 'delivered',
      as: 'prompt',
      turn: 3,
      rolledBack: true,
    })
  })

  it('R77: the same messages after reopening, from projectMessages and from surfaceMessages', async () => {
    const { agent } = await threeTurns()
    agent.rollback(2)
    const events = agent.session.events
    const messages = texts(agent.session.messages())
    expect(texts(echoAgent(events).session.messages())).toEqual(messages)
    expect(texts(projectMessages(events))).toEqual(messages)
    expect(texts(await firstValueFrom(of(...events).pipe(surfaceMessages(), last())))).toEqual(messages)
  })

  it.each([[0], [-1], [1.5], [Number.NaN], ['1'], [4]])(
    'R77: rollback(%j) is InvalidInputError and changes nothing',
    async (turns) => {
      const { agent } = await threeTurns()
      const before = agent.session.events.length
      expect(() => agent.rollback(turns as number)).toThrow(InvalidInputError)
      expect(agent.session.events.length).toBe(before)
    },
  )

  it('R77: while a turn runs rollback is AgentBusyError and changes nothing', async () => {
    const agent = createAgent({ model: () => NEVER })
    agent.followup('one')
    await firstValueFrom(agent.status$.pipe(first((s) => s === 'running')))
    const before = agent.session.events.length
    expect(() => agent.rollback(1)).toThrow(AgentBusyError)
    expect(agent.session.events.length).toBe(before)
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
  })

  it('R77: the inbox is untouched: a parked prompt stays', async () => {
    const { agent } = await threeTurns()
    const parked = agent.send('later', { target: 'next-turn', wakeup: false })
    const inbox = agent.inbox
    agent.rollback(1)
    expect(agent.inbox).toBe(inbox)
    expect(agent.inbox.queue.map((item) => item.message.id)).toEqual([parked])
  })

  it('R77: a rollback of a turn from before a compaction-free restart still counts the turns of the log', async () => {
    const { agent } = await threeTurns()
    const reopened = echoAgent(agent.session.events)
    reopened.rollback(3)
    expect(reopened.session.messages()).toEqual([])
  })
})
