import type { SessionEvent } from '../events.js'

/** The highest turn number a history opened, so turn numbers continue after it (R7, R37). */
export const lastTurnOf = (history: readonly SessionEvent[]): number => {
  let last = 0
  for (const event of history)
    if (event.type === 'turn/start' && event.data.turn > last) last = event.data.turn
  return last
}
