/** The terminal app's list of running tool calls (R72) and `/cancel-tool N` (R71). */
import { first, firstValueFrom, NEVER } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { parseCommand, runCommand } from '../../src/cli/commands.js'
import { RunningTools } from '../../src/cli/runningTools.js'
import type { AgentEvent } from '../../src/contracts/events.js'
import { createAgent, defineTool } from '../../src/index.js'

const start = (callId: string, name: string): AgentEvent => ({
  type: 'agent/tool/start',
  agentId: 'a',
  turn: 1,
  step: 1,
  callId,
  index: 0,
  name,
})
const end = (callId: string): AgentEvent => ({
  type: 'agent/tool/end',
  agentId: 'a',
  turn: 1,
  step: 1,
  callId,
  index: 0,
  isError: false,
})

describe('R72: the running tools list', () => {
  it('numbers calls in start order, shows elapsed time, and drops a call at its end', () => {
    let now = 1_000
    const running = new RunningTools(() => now)
    expect(running.see(start('c1', 'search'))).toBe(true)
    now = 120_000
    running.see(start('c2', 'fetch'))
    now = 126_400
    expect(running.lines(80)).toEqual(['  tool 1 · search (c1) · 2m05s', '  tool 2 · fetch (c2) · 6.4s'])
    expect(running.see(end('c1'))).toBe(true)
    expect(running.see(end('c1'))).toBe(false)
    expect(running.lines(80)).toEqual(['  tool 1 · fetch (c2) · 6.4s'])
    expect(running.size).toBe(1)
  })

  it.each([
    ['1', 'c2'],
    ['2', '2'],
    ['0', '0'],
    ['call_9', 'call_9'],
  ])('R71: /cancel-tool %s names call %s (a number past the list is an id)', (ref, callId) => {
    const running = new RunningTools(() => 0)
    running.see(start('c2', 'fetch'))
    expect(running.callId(ref)).toBe(callId)
  })

  it('cuts a long line to the terminal width', () => {
    const running = new RunningTools(() => 0)
    running.see(start('c1', 'x'.repeat(100)))
    const [line = ''] = running.lines(40)
    expect(line).toHaveLength(39)
    expect(line.endsWith('…')).toBe(true)
  })
})

describe('R71: /cancel-tool N', () => {
  it('cancels the call listed as N; the turn goes on', async () => {
    const tool = defineTool({
      name: 'wait',
      description: 'w',
      parameters: z.object({}),
      execute: () => NEVER,
    })
    let n = 0
    const agent = createAgent({
      tools: [tool],
      model: () =>
        ++n === 1
          ? [
              { type: 'tool-call', id: 'call_a', name: 'wait', arguments: '{}' },
              { type: 'finish', reason: 'tool-calls' },
            ]
          : [
              { type: 'text', text: 'ok' },
              { type: 'finish', reason: 'stop' },
            ],
    })
    const running = new RunningTools()
    agent.events$.subscribe((event) => running.see(event))
    const started = firstValueFrom(agent.events$.pipe(first((e) => e.type === 'agent/tool/start')))
    agent.followup('go')
    await started
    expect(runCommand(agent, parseCommand('/cancel-tool 2'), { running }).lines).toEqual([
      'no running tool call 2 (it finished, or the number or id is wrong)',
    ])
    expect(runCommand(agent, parseCommand('/cancel-tool 1'), { running }).lines).toEqual([])
    await agent.whenIdle()
    const results = agent.session.events
      .filter((e) => e.type === 'tool/result')
      .map((e) => e.data.result.code)
    expect(results).toEqual(['CANCELLED'])
    expect(running.size).toBe(0)
    expect(agent.session.events.filter((e) => e.type === 'turn/end').map((e) => e.data.reason.kind)).toEqual([
      'completed',
    ])
  })
})
