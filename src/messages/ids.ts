import { monotonicFactory } from 'ulid'
import type { AgentMessageId } from './types.js'

/**
 * A minter of `AgentMessageId`s: ULIDs from one monotonic factory, so ids minted by the same
 * minter sort (as strings) in the order they were minted, even within one millisecond.
 *
 * @param now The clock for the time part; pass the scheduler's `now` to follow virtual time.
 */
export const createIdMinter = (now: () => number = Date.now): (() => AgentMessageId) => {
  const next = monotonicFactory()
  return () => next(now()) as AgentMessageId
}
