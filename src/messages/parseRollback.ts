/** The checks of `rollback(turns)` (R77), locally and from a client. */
import { AgentBusyError } from '../contracts/errors.js'
import { checkInput } from './checkInput.js'

/**
 * The check of `rollback(turns)` that needs no session: a whole number from 1, or
 * `InvalidInputError`. A client of a session on PostgreSQL makes it before it stores anything.
 */
export const checkRollbackTurns = (turns: unknown): number =>
  checkInput('rollback()', (check) => {
    if (typeof turns !== 'number' || !Number.isSafeInteger(turns) || turns < 1)
      check.add(['turns'], 'expected how many turns to undo: a whole number from 1')
    return turns as number
  })

/**
 * `rollback(turns)`: the turn the messages go back to, or a typed error that changes nothing.
 * `timeline` is the turns `session.messages()` holds now, oldest first (turns an earlier rollback
 * undid do not count); 0 means before the first of them. `idle`: whether the agent may roll back
 * now (a client's check of the count passes `true`; the owner checks again when it applies it).
 */
export const rollbackTarget = (turns: unknown, timeline: readonly number[], idle: boolean): number => {
  const count = checkRollbackTurns(turns)
  if (!idle)
    throw new AgentBusyError('rollback()', 'call it while idle (after whenIdle(), or cancel() first)')
  return checkInput('rollback()', (check) => {
    if (count > timeline.length) check.add(['turns'], tooMany(timeline.length))
    return count === timeline.length ? 0 : (timeline[timeline.length - count - 1] as number)
  })
}

const tooMany = (undoable: number): string =>
  undoable === 0
    ? 'there is no turn to undo'
    : `only ${undoable} turn${undoable === 1 ? '' : 's'} can be undone`
