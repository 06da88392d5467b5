import { createIdMinter } from './ids.js'

/** One minter per process, so message ids sort in acceptance order across all agents. */
export const mintMessageId = createIdMinter()

/**
 * Session ids are ULIDs too, from a minter of their own: within one millisecond the next id is
 * the last plus one instead of 16 fresh random characters, which was a tenth of creating an agent.
 */
const sessionIds = createIdMinter()
export const mintSessionId = (): string => sessionIds()
