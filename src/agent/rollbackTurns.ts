import { AgentBusyError, InvalidInputError } from '../contracts/errors.js'

/**
 * The check of `rollback(turns)` (R77) that needs no session: a whole number from 1, or
 * `InvalidInputError`. A client of a session on PostgreSQL makes it before it stores anything.
 */
export const checkRollbackTurns = (turns: unknown): number => {
  if (typeof turns !== 'number' || !Number.isSafeInteger(turns) || turns < 1)
    throw new InvalidInputError('rollback()', [
      { path: ['turns'], message: 'expected how many turns to undo: a whole number from 1' },
    ])
  return turns
}

/**
 * `rollback(turns)` (R77): the turn the messages go back to, or a typed error that changes
 * nothing. `timeline` is the turns `session.messages()` holds now, oldest first (turns an earlier
 * rollback undid do not count); 0 means before the first of them.
 */
export const rollbackTarget = (turns: unknown, timeline: readonly number[], idle: boolean): number => {
  checkRollbackTurns(turns)
  const count = turns as number
  if (!idle)
    throw new AgentBusyError('rollback()', 'call it while idle (after whenIdle(), or cancel() first)')
  if (count > timeline.length)
    throw new InvalidInputError('rollback()', [
      {
        path: ['turns'],
        message:
          timeline.length === 0
            ? 'there is no turn to undo'
            : `only ${timeline.length} turn${timeline.length === 1 ? '' : 's'} can be undone`,
      },
    ])
  return count === timeline.length ? 0 : (timeline[timeline.length - count - 1] as number)
}
