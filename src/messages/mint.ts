import { ulid } from 'ulid'
import { createIdMinter, pooledPrng } from './ids.js'

/** One minter per process, so message ids sort in acceptance order across all agents. */
export const mintMessageId = createIdMinter()

export const mintSessionId = (): string => ulid(undefined, pooledPrng)
