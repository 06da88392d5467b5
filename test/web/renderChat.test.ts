/** The chat lines of the `steerable serve` page (`chatLine`), for the events whose line says little. */
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src/index.js'
import { chatLine } from '../../src/web/app/renderChat.js'

const decision = (data: object) =>
  ({ seq: 7, type: 'approval/decision', data: { turn: 1, step: 1, ...data } }) as unknown as SessionEvent

describe('R67: a decision on an approval as a chat line', () => {
  it('R67: an approval without a reason names the call and who decided, never an empty line', () => {
    const line = chatLine(decision({ callId: 'deploy-1', decision: 'approved', source: { kind: 'user' } }))
    expect(line).toEqual({ who: 'approved', text: 'deploy-1 by user' })
  })
  it('R67: a denial with a reason says it after the call', () => {
    const line = chatLine(
      decision({ callId: 'deploy-2', decision: 'denied', reason: 'not today', source: { kind: 'user' } }),
    )
    expect(line).toEqual({ who: 'denied', text: 'deploy-2 by user: not today' })
  })
})
