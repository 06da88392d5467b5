import type { Agent } from '../contracts/agent.js'
import { InvalidInputError } from '../contracts/errors.js'
import type { AgentMessageId } from '../contracts/messages.js'
import type { RemoteEdit, RemoteEditApplied } from '../contracts/remote.js'
import { selectQuiescent } from '../machine/selectors.js'
import type { Driver } from '../runtime/driver.js'

/**
 * A remote `rollback(turns)` (R77): the agent's own call, once the agent is idle in the sense of
 * `whenIdle()`: no turn, no admission, no waking prompt. A prompt stored before the rollback thus
 * runs first and is one of the turns it counts, as its place in the journal says. While there is
 * work it returns `busy` and changes nothing; the owner tries again at the next idle moment.
 * More turns than the messages hold then settles the request refused under its own id, with the
 * error the local call throws, so the client that made it rejects with it.
 */
export const applyRemoteRollback = (
  agent: Agent,
  driver: Driver<Agent>,
  edit: Extract<RemoteEdit, { kind: 'rollback' }>,
): RemoteEditApplied => {
  const state = driver.getSnapshot()
  // Releasing or disposing: the request stays for the next owner.
  if (state.disposal !== 'none') return 'stopped'
  if (!selectQuiescent(state) || agent.status !== 'idle') return 'busy'
  try {
    agent.rollback(edit.turns)
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error
    const { name, message } = error
    driver.send({ type: 'refuse', id: edit.request as AgentMessageId, error: { name, message } })
    return 'refused'
  }
  return 'applied'
}
