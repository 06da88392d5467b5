import { monotonicFactory } from 'ulid'
import type { AgentMessageId } from './types.js'

/**
 * Randomness for ulid from a pooled buffer: ulid's default PRNG calls
 * `crypto.getRandomValues` once per character, which dominated the cost of accepting a send.
 * A byte / 256 picks each of the 32 ULID characters uniformly (256 is a multiple of 32).
 */
const pool = new Uint8Array(4096)
let at = pool.length
export const pooledPrng = (): number => {
  if (at === pool.length) {
    globalThis.crypto.getRandomValues(pool)
    at = 0
  }
  return (pool[at++] as number) / 256
}

/**
 * A minter of `AgentMessageId`s: ULIDs from one monotonic factory, so ids minted by the same
 * minter sort (as strings) in the order they were minted, even within one millisecond.
 *
 * @param now The clock for the time part; pass the scheduler's `now` to follow virtual time.
 */
export const createIdMinter = (now: () => number = Date.now): (() => AgentMessageId) => {
  const next = monotonicFactory(pooledPrng)
  return () => next(now()) as AgentMessageId
}
