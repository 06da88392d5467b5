import { configure } from 'rxjs-marbles'
import { expect } from 'vitest'
import type { AgentEvent } from '../../src/contracts/events.js'
import type { AgentMessage, AgentMessageId, AgentStatus } from '../../src/contracts/messages.js'

/** rxjs-marbles wired to vitest (frame-based diagrams, not run mode), for the operator specs. */
export const { marbles } = configure({
  assertDeepEqual: (a: unknown, e: unknown) => {
    expect(a).toStrictEqual(e)
  },
  frameworkMatcher: true,
})

export const message = (id: string): AgentMessage => ({
  id: id as AgentMessageId,
  content: [{ type: 'text', text: 'x' }],
  source: { kind: 'user' },
})
export const enqueue = (id: string, agentId = 'a'): AgentEvent => ({
  type: 'agent/inbox/enqueue',
  agentId,
  message: message(id),
  placement: 'queued',
})
export const dequeue = (id: string, agentId = 'a'): AgentEvent => ({
  type: 'agent/inbox/dequeue',
  agentId,
  message: message(id),
})
export const discard = (ids: readonly string[], agentId = 'a'): AgentEvent => ({
  type: 'agent/inbox/discard',
  agentId,
  reason: 'cancel',
  messages: ids.map(message),
})
export const status = (s: AgentStatus, agentId = 'a'): AgentEvent => ({
  type: 'agent/status',
  agentId,
  status: s,
})
