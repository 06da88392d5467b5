/**
 * R55, R57: connectSessions and createWorker list every bad argument in one InvalidInputError,
 * the pool and the options together, through the same check as every other call.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/index.js'
import { connectSessions, createWorker, type PostgresPool } from '../../../src/postgres.js'

const refused = (run: () => unknown): InvalidInputError => {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return error as InvalidInputError
  }
  throw new Error('expected InvalidInputError')
}

describe('R55, R57: every bad argument at once', () => {
  it('R55: connectSessions names a pool that is not one and a bad option together', () => {
    const error = refused(() => connectSessions({} as PostgresPool, { pollMs: 0, timeoutMS: 5 } as never))
    expect(error.issues.map((i) => i.path.join('.'))).toEqual(['pool', 'options.timeoutMS', 'options.pollMs'])
    expect(error.message).toContain('options.timeoutMS: unknown key; did you mean timeoutMs?')
  })

  it('R57: createWorker names every bad option, with the option a typo meant', () => {
    const error = refused(() => createWorker({ pool: null, agent: 'a', concurency: 2, pollMs: -1 } as never))
    expect(error.message).toBe(
      'createWorker(): options.concurency: unknown key; did you mean concurrency?; ' +
        'options.pool: expected a pg.Pool (an object with connect()), got null; ' +
        'options.agent: expected a function ((sessionId) => the agent options of that session), got "a"; ' +
        'options.pollMs: expected a number of milliseconds from 1 to 2147483647 (such as 1000), got -1',
    )
  })
})
