import type { Agent } from '../contracts/agent.js'
import type { AgentCancelCause, AgentMessageId, CancelOptions, SendInput } from '../contracts/messages.js'
import type { RemoteEdit, RemoteEditApplied } from '../contracts/remote.js'

/**
 * The owner's side of a remote edit (R55, R58): it goes through the agent's own operation, so it
 * is one input of the same ordered pipeline as everything else (V3), validated again (R1, R2),
 * and decided by the agent's state when it is processed (R43–R46: an item that is no longer
 * waiting is left alone; R25, R26 for a cancel). Called at top level, each operation returns once
 * its input was processed, so what it journaled is buffered when this returns. An agent that
 * stopped (disposed or released) applies nothing: the edit stays for the next owner.
 */
export const remoteEdits =
  (agent: Agent, finished: () => boolean) =>
  (edit: RemoteEdit): RemoteEditApplied => {
    if (finished()) return 'stopped'
    const id = ('id' in edit ? edit.id : '') as AgentMessageId
    switch (edit.kind) {
      case 'remove':
        agent.remove(id)
        break
      case 'replace':
        agent.replace(id, edit.input as SendInput)
        break
      case 'move':
        agent.move(id, edit.index)
        break
      case 'promote':
        agent.promote(id)
        break
      case 'cancel':
        agent.cancel(edit.cause as AgentCancelCause, edit.options as CancelOptions)
        break
    }
    return 'applied'
  }
