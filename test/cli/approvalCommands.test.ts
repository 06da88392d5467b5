/**
 * R67: `/approve ID` and `/deny ID [reason]` (what `steerable attach` takes, and the app too), and
 * the lines attach prints for the approval events of a transcript.
 */
import { filter, firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { approvalLine } from '../../src/cli/attachApprovals.js'
import { parseCommand, runCommand } from '../../src/cli/commands.js'
import { PLAIN } from '../../src/cli/format.js'
import { defineTool, type SessionEvent } from '../../src/index.js'
import { run } from '../support/agents.js'

describe('R67: approval commands', () => {
  it.each([
    ['/approve call-1', { kind: 'approve', callId: 'call-1' }],
    ['  /approve  call-1 ', { kind: 'approve', callId: 'call-1' }],
    ['/deny call-1', { kind: 'deny', callId: 'call-1' }],
    ['/deny call-1 not on   prod', { kind: 'deny', callId: 'call-1', reason: 'not on prod' }],
    ['/approve', { kind: 'usage', text: expect.stringContaining('usage: /approve ID') }],
    ['/approve a b', { kind: 'usage', text: expect.stringContaining('usage: /approve ID') }],
    ['/deny', { kind: 'usage', text: expect.stringContaining('usage: /deny ID [reason]') }],
  ])('R67: %j parses as %j', (line, command) => {
    expect(parseCommand(line)).toEqual(command)
  })

  it('R67: a request shows the call and its arguments with its id; a decision says who decided and why', () => {
    const request = {
      seq: 5,
      type: 'approval/request',
      data: { turn: 1, step: 1, callId: 'call-1', name: 'deploy', arguments: '{"target":"prod"}' },
    } as SessionEvent
    expect(approvalLine(request, PLAIN)).toBe('  ⏸ deploy({"target":"prod"}) waits for approval · call-1')
    const decision = (data: object) =>
      ({
        seq: 6,
        type: 'approval/decision',
        data: { turn: 1, step: 1, callId: 'call-1', source: { kind: 'system' }, ...data },
      }) as SessionEvent
    const denied = decision({ decision: 'denied', reason: 'timeout' })
    expect(approvalLine(denied, PLAIN)).toBe('  ✗ call-1 denied (system): timeout')
    const approved = decision({ decision: 'approved' })
    expect(approvalLine(approved, PLAIN)).toBe('  ✓ call-1 approved (system)')
    expect(
      approvalLine({ seq: 7, type: 'turn/start', data: { turn: 2 } } as SessionEvent, PLAIN),
    ).toBeUndefined()
  })
})

describe('R67: /approve and /deny in the app', () => {
  it('R62, R67: they decide a pending call; an id that is not pending is a line, not a throw', async () => {
    const ran: string[] = []
    const shell = defineTool({
      name: 'shell',
      description: 'Runs a command.',
      parameters: z.object({ cmd: z.string() }),
      needsApproval: true,
      execute: ({ cmd }) => void ran.push(cmd),
    })
    const calls = [0, 1].map((i) => ({ id: `c${i}`, name: 'shell', arguments: `{"cmd":"cmd ${i}"}` }))
    const { agent, durable } = run([{ toolCalls: calls }, 'done'], { tools: [shell] })
    agent.followup('go')
    await firstValueFrom(agent.approvals$.pipe(filter((list) => list.length === 2)))
    expect(runCommand(agent, parseCommand('/approve nope')).lines).toEqual([
      expect.stringMatching(/^approve\(\): no approval is pending for tool call "nope"/),
    ])
    expect(runCommand(agent, parseCommand('/deny c1 too risky')).lines).toEqual([])
    expect(runCommand(agent, parseCommand('/approve c0')).lines).toEqual([])
    await agent.whenIdle()
    expect(ran).toEqual(['cmd 0'])
    expect(durable.filter((e) => e.type === 'approval/decision').map((e) => e.data)).toMatchObject([
      { callId: 'c1', decision: 'denied', reason: 'too risky' },
      { callId: 'c0', decision: 'approved' },
    ])
  })
})
