import { lastValueFrom, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createAgent, isHumanPrompt, projectMessages, surfaceMessages } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

describe('surface projection and human prompts', () => {
  it.each([
    [{ kind: 'user' }, true],
    [{ kind: 'user', device: 'phone' }, true],
    [{ kind: 'plugin', plugin: 'memory' }, false],
    [{ kind: 'tool', tool: 'notes' }, false],
    [{ kind: 'goal', goalId: 'g', revision: 1, round: 2 }, false],
    [{ kind: 'custom-producer', extra: [1, 2] }, false],
  ])('R39: isHumanPrompt(%j) is %s, whatever event type carries it', (source, human) => {
    expect(isHumanPrompt(source)).toBe(human)
  })

  it('R39: an injected context and a prompt are both user/message; only the source tells them apart', async () => {
    const agent = createAgent({ model: scriptedModel(['ok']) })
    agent.inject({ content: [{ type: 'text', text: 'fact' }], source: { kind: 'plugin', plugin: 'p' } })
    agent.followup('question')
    await agent.whenIdle()
    const users = agent.session.events.filter((e) => e.type === 'user/message')
    expect(users.map((e) => [e.type, isHumanPrompt(e.data.source)])).toEqual([
      ['user/message', false],
      ['user/message', true],
    ])
  })

  it('R38: messages() maps user, steering, non-empty assistant and tool results verbatim; an empty assistant message maps to nothing', async () => {
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [{ name: 'missing' }] }, { text: '' }]),
    })
    agent.followup('go')
    await agent.whenIdle()
    const events = agent.session.events
    expect(agent.session.messages()).toEqual(projectMessages(events))
    expect(agent.session.messages().map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    expect(agent.session.messages()[1]?.content[0]).toMatchObject({ type: 'tool-call', name: 'missing' })
    expect(agent.session.messages()[2]?.content[0]).toMatchObject({
      type: 'tool-result',
      code: 'UNKNOWN_TOOL',
    })
    expect(events.filter((e) => e.type === 'assistant/message').map((e) => e.data.content.length)).toEqual([
      1, 0,
    ])
    await agent.dispose()
    const replayed = await lastValueFrom(agent.transcript$.pipe(surfaceMessages(), toArray()))
    expect(replayed.at(-1)).toEqual(agent.session.messages())
  })

  it('R38: the surfaceMessages() operator over transcript$ ends equal to session.messages()', async () => {
    const agent = createAgent({ model: scriptedModel(['one', 'two']) })
    const seen: (readonly unknown[])[] = []
    agent.transcript$.pipe(surfaceMessages()).subscribe((messages) => seen.push(messages))
    agent.followup('a')
    agent.steer('b')
    await agent.whenIdle()
    expect(seen.at(-1)).toEqual(agent.session.messages())
    expect(seen.map((m) => m.length)).toEqual([1, 2, 3, 4])
    expect(Object.isFrozen(seen[0])).toBe(true)
  })
})
