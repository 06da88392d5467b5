/**
 * R71, owner side: a remote `cancelToolCall` of a call that is not running must not throw in the
 * owner; it settles refused under the request's id with the error a client reads back, made like
 * the refusal of a decision: an `Error` of the public surface, kept as its `name` and `message`.
 */
import { expect, it } from 'vitest'
import { type AgentMessageId, ToolCallNotRunning } from '../../src/index.js'
import { mintMessageId } from '../../src/messages/mint.js'
import { extensionsOf } from '../../src/runtime/extensions.js'
import { setup } from '../support/agents.js'

it('R71: a remote cancel of a call that is not running settles refused with a ToolCallNotRunning', async () => {
  const { agent } = setup([])
  const request = mintMessageId() as AgentMessageId
  expect(extensionsOf(agent).applyRemoteEdit({ kind: 'cancel-call', request, callId: 'c9' })).toBe('refused')
  const error = new ToolCallNotRunning('cancelToolCall()', 'c9')
  expect(error).toBeInstanceOf(Error)
  expect(error.name).toBe('ToolCallNotRunning')
  expect(error.callId).toBe('c9')
  expect(await agent.outcome(request)).toEqual({
    kind: 'refused',
    error: { name: 'ToolCallNotRunning', message: error.message },
  })
  expect(error.message).toBe('cancelToolCall(): no running tool call c9 (it settled, or the id is wrong)')
  await agent.dispose()
})
