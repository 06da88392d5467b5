/**
 * Tool sources through the public API (R100): the `tools` option takes tools and sources side by
 * side; each step uses the latest list of every source, never changing inside a batch; a step whose
 * list differs from the previous one records `tools/changed` before its request.
 */
import { BehaviorSubject, Subject } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ModelRequest } from '../../src/index.js'
import { defineTool, InvalidInputError, type ToolDefinition } from '../../src/index.js'
import type { ScriptedReply } from '../../src/testing.js'
import { run } from '../support/agents.js'

const tool = (name: string, execute: () => unknown = () => `${name} ran`): ToolDefinition =>
  defineTool({ name, description: `The ${name} tool.`, parameters: z.object({}), execute })

const call = (name: string, id = `call-${name}`) => ({ toolCalls: [{ id, name, arguments: '{}' }] })
const namesOf = (request: ModelRequest | undefined) => request?.tools.map((t) => t.name)

describe('R100: tool sources', () => {
  it('R100: a step sees the latest list; tools/changed is recorded before the step whose list differs', async () => {
    const source = new BehaviorSubject<readonly ToolDefinition[]>([tool('a')])
    const local = tool('local')
    const script: ScriptedReply[] = [
      () => {
        // While step 1 runs, the source adds a tool: step 1 keeps its own list.
        source.next([tool('a'), tool('b')])
        return [
          { type: 'tool-call', id: 'call-a', name: 'a', arguments: '{}' },
          { type: 'finish', reason: 'tool-calls' },
        ]
      },
      'done',
    ]
    const { agent, model, log } = run(script, { tools: [local, { tools$: source }] })
    agent.followup('go')
    await agent.whenIdle()
    expect(namesOf(model.requests[0])).toEqual(['local', 'a'])
    expect(namesOf(model.requests[1])).toEqual(['local', 'a', 'b'])
    const changed = agent.session.events.filter((e) => e.type === 'tools/changed')
    expect(changed.map((e) => e.data)).toEqual([{ added: ['b'], removed: [] }])
    // Recorded after the first step ended and before the second one started.
    expect(log.slice(log.indexOf('tools(+b)') - 1, log.indexOf('tools(+b)') + 2)).toEqual([
      'step/end(1.1)',
      'tools(+b)',
      'step/start(1.2)',
    ])
  })

  it('R100: a list change inside a batch changes nothing for that batch; the next step sees it', async () => {
    const source = new BehaviorSubject<readonly ToolDefinition[]>([])
    const slow = tool('slow', () => {
      // The tool removes itself while its batch runs: it still runs to the end, as the step saw it.
      source.next([])
      return 'finished'
    })
    source.next([slow])
    const { agent, model, durable } = run([call('slow'), 'done'], { tools: [{ tools$: source }] })
    agent.followup('go')
    await agent.whenIdle()
    const result = durable.find((e) => e.type === 'tool/result')
    expect(result?.data).toMatchObject({
      result: { toolCallId: 'call-slow', content: [{ text: 'finished' }] },
    })
    expect(namesOf(model.requests[1])).toEqual([])
    expect(agent.session.events.filter((e) => e.type === 'tools/changed').map((e) => e.data)).toEqual([
      { added: [], removed: ['slow'] },
    ])
  })

  it('R100: a call to a tool that is not in the list its step saw gives UNKNOWN_TOOL', async () => {
    const source = new BehaviorSubject<readonly ToolDefinition[]>([tool('gone')])
    const first: ScriptedReply = (request) => {
      expect(namesOf(request)).toEqual(['gone'])
      source.next([])
      return [
        { type: 'text', text: 'ok' },
        { type: 'finish', reason: 'stop' },
      ]
    }
    const { agent, durable } = run([first, call('gone'), 'done'], { tools: [{ tools$: source }] })
    agent.followup('one')
    agent.followup('two')
    await agent.whenIdle()
    const result = durable.find((e) => e.type === 'tool/result')
    expect(result?.data).toMatchObject({
      result: { toolCallId: 'call-gone', isError: true, code: 'UNKNOWN_TOOL' },
    })
  })

  it('R100: two tools with one name is InvalidInputError at creation, from tools and sources alike', () => {
    const source = new BehaviorSubject<readonly ToolDefinition[]>([tool('a')])
    const create = () => run([], { tools: [tool('a'), { tools$: source }] })
    expect(create).toThrow(InvalidInputError)
    expect(create).toThrow(/options\.tools\[1\]: duplicate tool name "a"/)
    // Nothing is left following the source.
    expect(source.observed).toBe(false)
  })

  it('R100: a later duplicate keeps the first tool and is an agent/error that names the source', async () => {
    const source = new BehaviorSubject<readonly ToolDefinition[]>([])
    const { agent, model, live } = run(['one', 'two'], { tools: [tool('a'), { tools$: source }] })
    agent.followup('one')
    await agent.whenIdle()
    source.next([tool('a', () => 'the second'), tool('b')])
    agent.followup('two')
    await agent.whenIdle()
    expect(namesOf(model.requests[1])).toEqual(['a', 'b'])
    const errors = live.filter((e) => e.type === 'agent/error')
    expect(errors).toHaveLength(1)
    expect(String((errors[0] as { error: unknown }).error)).toMatch(
      /tool source tools\[1\].*duplicate tool name "a"/s,
    )
    expect(agent.session.events.filter((e) => e.type === 'tools/changed').map((e) => e.data)).toEqual([
      { added: ['b'], removed: [] },
    ])
  })

  it('R100: a source that errors keeps its last list, with an agent/error; dispose stops following every source', async () => {
    const source = new Subject<readonly ToolDefinition[]>()
    const { agent, model, live } = run(['one'], { tools: [{ tools$: source }] })
    source.next([tool('kept')])
    source.error(new Error('server gone'))
    agent.followup('one')
    await agent.whenIdle()
    expect(namesOf(model.requests[0])).toEqual(['kept'])
    expect(
      live.filter((e) => e.type === 'agent/error').map((e) => String((e as { error: unknown }).error)),
    ).toEqual([expect.stringMatching(/tool source tools\[0\].*server gone/s)])
    const other = new BehaviorSubject<readonly ToolDefinition[]>([])
    const second = run([], { tools: [{ tools$: other }] })
    expect(other.observed).toBe(true)
    await second.agent.dispose()
    expect(other.observed).toBe(false)
  })

  it('R100: a static list never records tools/changed, and a source that repeats the same names neither', async () => {
    const source = new BehaviorSubject<readonly ToolDefinition[]>([tool('a')])
    const { agent } = run([call('a'), 'done'], { tools: [{ tools$: source }] })
    agent.followup('go')
    source.next([tool('a')])
    await agent.whenIdle()
    expect(agent.session.events.some((e) => e.type === 'tools/changed')).toBe(false)
  })
})
