import { describe, expect, it } from 'vitest'
import { parseAnswer } from '../../src/cli/approvalPrompt.js'
import { parseCommand } from '../../src/cli/commands.js'
import { formatDurable, PLAIN } from '../../src/cli/format.js'
import type { SessionEvent } from '../../src/index.js'

describe('the answers to a pending approval in the terminal app (R67)', () => {
  it.each([
    ['y', { kind: 'yes' }],
    [' Y ', { kind: 'yes' }],
    ['n', { kind: 'no' }],
    ['n   ', { kind: 'no' }],
    ['n keep it', { kind: 'no', reason: 'keep it' }],
    ['N  not  now ', { kind: 'no', reason: 'not  now' }],
    ['yes', undefined],
    ['no', undefined],
    ['nope, steer instead', undefined],
    ['/n', undefined],
  ])('%j answers %j', (line, answer) => {
    expect(parseAnswer(line)).toEqual(answer)
  })

  it('y and n answer only while a call waits; otherwise they are text like any other', () => {
    expect(parseCommand('n why', true)).toEqual({ kind: 'no', reason: 'why' })
    expect(parseCommand('y')).toEqual({ kind: 'say', text: 'y' })
    expect(parseCommand('n why')).toEqual({ kind: 'say', text: 'n why' })
    expect(parseCommand('/inbox', true)).toEqual({ kind: 'inbox' })
  })
})

describe('the transcript lines of a pause (the app and attach show the same)', () => {
  const event = <T extends SessionEvent['type']>(type: T, data: Extract<SessionEvent, { type: T }>['data']) =>
    ({ seq: 1, type, data }) as SessionEvent

  it('a request names the call, its arguments and its id; a decision says who decided when it was not the user', () => {
    const request = event('approval/request', {
      turn: 1,
      step: 2,
      callId: 'c1',
      name: 'rm',
      arguments: '{"p":"/"}',
    })
    expect(formatDurable(request, PLAIN)).toBe('  ⏸ rm({"p":"/"}) waits for approval (call c1)')
    const base = { turn: 1, step: 2, callId: 'c1', source: { kind: 'user' } } as const
    expect(formatDurable(event('approval/decision', { ...base, decision: 'approved' }), PLAIN)).toBe(
      '  ✓ approved call c1',
    )
    const timeout = { ...base, decision: 'denied', reason: 'timeout', source: { kind: 'system' } } as const
    expect(formatDurable(event('approval/decision', timeout), PLAIN)).toBe(
      '  ✗ denied call c1 by system: timeout',
    )
  })

  it('a budget pause says what was used and the limits', () => {
    const data = { turn: 2, step: 3, usage: { totalTokens: 1500, requests: 4 }, limits: { maxRequests: 3 } }
    expect(formatDurable(event('budget/pause', data), PLAIN)).toBe(
      '  ⏸ over budget after step 2.3: 1500 tokens and 4 requests used (limit 3 requests)',
    )
  })
})
