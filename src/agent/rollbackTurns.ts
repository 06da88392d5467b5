import { AgentBusyError, InvalidInputError } from '../contracts/errors.js'

/**
 * `rollback(turns)` (R77): the turn the messages go back to, or a typed error that changes
 * nothing. `timeline` is the turns `session.messages()` holds now, oldest first (turns an earlier
 * rollback undid do not count); 0 means before the first of them.
 */
export const rollbackTarget = (turns: unknown, timeline: readonly number[], idle: boolean): number => {
  if (typeof turns !== 'number' || !Number.isSafeInteger(turns) || turns < 1)
    throw new InvalidInputError('rollback()', [
      { path: ['turns'], message: 'expected how many turns to undo: a whole number from 1' },
    ])
  if (!idle)
    throw new AgentBusyError('rollback()', 'call it while idle (after whenIdle(), or cancel() first)')
  if (turns > timeline.length)
    throw new InvalidInputError('rollback()', [
      {
        path: ['turns'],
        message:
          timeline.length === 0
            ? 'there is no turn to undo'
            : `only ${timeline.length} turn${timeline.length === 1 ? '' : 's'} can be undone`,
      },
    ])
  return turns === timeline.length ? 0 : (timeline[timeline.length - turns - 1] as number)
}
