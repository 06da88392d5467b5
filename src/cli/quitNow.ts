import type { Agent } from '../contracts/agent.js'
import { extensionsOf } from '../runtime/extensions.js'
import { waitingItems } from './inboxList.js'

/**
 * What `/quit` (and Ctrl-D, Ctrl-C on an empty line in the terminal) does: leave now, not after
 * the running turn. The turn ends at once. What waits (queued items, staged steering and context)
 * is kept when the session is stored (`--session`, `--database-url`): the agent lets go of the
 * session as a PostgreSQL owner hands it over (R57), so the waiting items stay in its journal and
 * run when the session is resumed — `dispose()` would journal them as discarded, and a message the
 * app accepted would be lost. Without a stored session nothing outlives the process, so they are
 * dropped, and the line returned says so.
 */
export const quitNow = async (agent: Agent, stored: boolean): Promise<string | undefined> => {
  const waiting = waitingItems(agent.inbox).length
  const running = agent.status !== 'idle'
  if (stored) await extensionsOf(agent).release()
  else await agent.dispose()
  const items = waiting === 1 ? '1 waiting item' : `${waiting} waiting items`
  const they = waiting === 1 ? 'it runs' : 'they run'
  if (stored && waiting > 0) return `quit: ${items} kept in the session (${they} when you resume it)`
  if (waiting > 0) return `quit: ${items} dropped (--session FILE keeps them)`
  return running ? 'quit: the running turn was ended' : undefined
}
