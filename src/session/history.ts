import { InvalidInputError } from '../contracts/errors.js'
import type { SessionEvent } from '../contracts/events.js'
import type { SessionStore } from '../contracts/store.js'
import { checkEvent } from './sessionEventSchema.js'

/** The highest turn number a history opened, so turn numbers continue after it (R7, R37). */
export const lastTurnOf = (history: readonly SessionEvent[]): number => {
  let last = 0
  for (const event of history)
    if (event.type === 'turn/start' && event.data.turn > last) last = event.data.turn
  return last
}

/**
 * The history a new agent continues (R37): what the store holds, checked like a file store's
 * lines (a store of your own may hand back anything); else `given` (the `history` option),
 * checked and handed to the store, so the store holds the whole session.
 */
export const openHistory = (store: SessionStore, given: unknown): readonly SessionEvent[] => {
  const loaded = checkLoaded(store.load())
  if (loaded.length > 0) return loaded
  const history = given === undefined ? [] : checkHistory(given)
  if (history.length > 0) store.append(history)
  return history
}

/**
 * What `store.load()` returned, checked; an `InvalidInputError` at `options.store.load()` also when
 * merely reading it throws (a revoked Proxy, a throwing getter).
 */
const checkLoaded = (loaded: unknown): readonly SessionEvent[] =>
  checkEventList(loaded, ['options', 'store', 'load()'])

/** `createAgent({history})`: the same schema and `seq` order as a file store's lines (R37). */
export const checkHistory = (history: unknown): readonly SessionEvent[] =>
  checkEventList(history, ['options', 'history'])

/**
 * An array of events, checked; an `InvalidInputError` at `path` also when merely reading it
 * throws (a revoked Proxy, a throwing getter), whatever it threw.
 */
const checkEventList = (list: unknown, path: readonly string[]): readonly SessionEvent[] => {
  try {
    if (!Array.isArray(list))
      throw new InvalidInputError('createAgent()', [{ path, message: 'expected an array' }])
    return list.length > 0 ? checkEvents(list, path) : []
  } catch (error) {
    if (isRefusal(error)) throw error
    throw new InvalidInputError('createAgent()', [
      { path, message: 'reading it threw; give an array of plain session events' },
    ])
  }
}

const isRefusal = (error: unknown): boolean => {
  try {
    return error instanceof InvalidInputError
  } catch {
    return false
  }
}

/** Every event against the schema and `seq` order; the first problem is an `InvalidInputError`. */
const checkEvents = (events: readonly unknown[], path: readonly string[]): readonly SessionEvent[] => {
  events.forEach((event, i) => {
    const problem = checkEvent(event, i)
    if (problem)
      throw new InvalidInputError('createAgent()', [{ path: [...path, i], message: problem.message }])
  })
  return events as readonly SessionEvent[]
}
