import { from as fromInput, lastValueFrom } from 'rxjs'
import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import type { SessionEventOf } from '../contracts/events.js'
import type { SessionStore } from '../contracts/store.js'
import { deepFreezeNewParts } from './deepFreezeNewParts.js'
import { ForkIncompleteError } from './forkIncompleteError.js'
import { forkPrefix } from './forkPrefix.js'
import { storeIdOf } from './storeIds.js'

export type ForkOptions = {
  /** Copy up to the end of this turn, as the source's log numbers it; default: every event. */
  readonly atTurn?: number
  /**
   * The id the `fork` event names the source by, for a store that has none of its own (a memory
   * store, a store of your own). A PostgreSQL store's id is its `sessionId`; a file store's is its
   * absolute path.
   */
  readonly sourceId?: string
}

export type ForkResult = {
  /** The source's id, as the `fork` event names it. */
  readonly from: string
  /** The turn forked at: the last one `session.messages()` of the fork holds (0 for none). */
  readonly atTurn: number
  /** How many of the source's events were copied (the `fork` event not counted). */
  readonly copied: number
  /** The `fork` event appended after them. */
  readonly event: SessionEventOf<'fork'>
}

const CALL = 'forkSession()'

/**
 * Forks a session (R78): copies the durable events of `from` up to the end of turn
 * `options.atTurn` (default: all of them) into the empty store `to`, keeping their `seq`s, appends
 * one `fork {from, atTurn}` event and flushes `to`. The inbox journal is not copied: the fork
 * starts with nothing waiting. `createAgent({store: to})` then continues it as a new session, its
 * next turn numbered after the copied ones; the source is only read.
 *
 * Bad input rejects with `InvalidInputError` and changes nothing: `to` holds events, inbox
 * records or remote requests that wait (PostgreSQL), `from` is `to` (or the same session), `from` is empty, `atTurn` is not a whole number
 * from 1 or names no turn of `from` that ended. A copy the target refuses or cannot flush rejects
 * with `ForkIncompleteError`. Neither store is closed: the caller owns both.
 */
export const forkSession = async (
  from: SessionStore,
  to: SessionStore,
  options: ForkOptions = {},
): Promise<ForkResult> => {
  checkArguments(from, to, options)
  const sourceId = options.sourceId ?? idOf(from)
  if (sourceId === undefined)
    refuse(
      ['options', 'sourceId'],
      'the source store has no id of its own (no sessionId, no path): pass {sourceId}',
    )
  if (from === to || (idOf(to) !== undefined && idOf(to) === idOf(from)))
    refuse(['to'], 'is the source session: fork into another, empty store')
  const events = from.load()
  if (events.length === 0) refuse(['from'], 'holds no events: there is nothing to fork')
  const held = to.load().length
  if (held > 0) refuse(['to'], `already holds ${held} events: fork into a new, empty store`)
  const waiting = (to.inbox?.load().length ?? 0) + remoteWaiting(to)
  if (waiting > 0)
    refuse(['to'], `its inbox journal already holds ${waiting} records: fork into a new, empty store`)
  const prefix = forkPrefix(events, options.atTurn)
  const last = prefix.events.at(-1)?.seq ?? 0
  const event = deepFreezeNewParts<SessionEventOf<'fork'>>({
    seq: last + 1,
    type: 'fork',
    data: { from: sourceId, atTurn: prefix.atTurn },
  })
  try {
    to.append([...prefix.events, event])
  } catch (error) {
    throw new ForkIncompleteError('append', error)
  }
  try {
    await lastValueFrom(fromInput(to.flush()), { defaultValue: undefined })
  } catch (error) {
    throw new ForkIncompleteError('flush', error)
  }
  return { from: sourceId, atTurn: prefix.atTurn, copied: prefix.events.length, event }
}

// A declaration, not an arrow: TypeScript narrows after a call only to a declared `never` function.
function refuse(path: InputIssue['path'], message: string): never {
  throw new InvalidInputError(CALL, [{ path, message }])
}

const isStore = (value: unknown): value is SessionStore => {
  const store = value as Partial<SessionStore> | null
  return (
    typeof store === 'object' &&
    store !== null &&
    typeof store.load === 'function' &&
    typeof store.append === 'function' &&
    typeof store.flush === 'function'
  )
}

const checkArguments = (from: unknown, to: unknown, options: unknown): void => {
  if (!isStore(from)) refuse(['from'], 'expected a SessionStore (load, append, flush)')
  if (!isStore(to)) refuse(['to'], 'expected a SessionStore (load, append, flush)')
  if (typeof options !== 'object' || options === null) refuse(['options'], 'expected an object')
  const { atTurn, sourceId } = options as { atTurn?: unknown; sourceId?: unknown }
  if (atTurn !== undefined && (typeof atTurn !== 'number' || !Number.isSafeInteger(atTurn) || atTurn < 1))
    refuse(['options', 'atTurn'], 'expected a turn number: a whole number from 1')
  if (sourceId !== undefined && (typeof sourceId !== 'string' || sourceId === ''))
    refuse(['options', 'sourceId'], 'expected a non-empty string')
}

/**
 * The session's id, as a store knows it: a PostgreSQL store's `sessionId`, a file store's path
 * made absolute (a relative one would name another file from another directory).
 */
const idOf = (store: SessionStore): string | undefined => {
  const { sessionId } = store as { sessionId?: unknown }
  if (typeof sessionId === 'string' && sessionId !== '') return sessionId
  return storeIdOf(store)
}

/**
 * Requests other processes stored for the target that its owner has not applied yet (a
 * PostgreSQL store's `remoteRequests`, R55): they are in its journal too, and an owner of the
 * fork would run them on the copied session.
 */
const remoteWaiting = (store: SessionStore): number => {
  const { remoteRequests } = store as { remoteRequests?: unknown }
  return Array.isArray(remoteRequests) ? remoteRequests.length : 0
}
