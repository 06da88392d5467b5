/**
 * R57, R55: createWorker and connectSessions check their options before anything starts: nonsense
 * (a concurrency of 0, NaN, '4'; a pollMs of 0; a negative timeout …) and a pool too small for
 * the worker's concurrency throw InvalidInputError naming the option, and no connection is asked for.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/index.js'
import { connectSessions, createWorker, type PostgresPool } from '../../../src/postgres.js'

/** A pool that counts the connections asked of it (and never gives one). */
const fakePool = (max?: number) => {
  const pool = {
    asked: 0,
    connect: () => {
      pool.asked++
      return new Promise<never>(() => {})
    },
    ...(max === undefined ? {} : { options: { max } }),
  }
  return pool
}
const agent = () => ({ model: (() => []) as never })

const refused = (run: () => unknown): InvalidInputError => {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return error as InvalidInputError
  }
  throw new Error('expected InvalidInputError')
}

describe('R57: createWorker refuses bad options before it starts', () => {
  const rows: [string, Record<string, unknown>, RegExp][] = [
    ['concurrency 0', { concurrency: 0 }, /options\.concurrency: expected a whole number, 1 or more/],
    ['concurrency -1', { concurrency: -1 }, /options\.concurrency/],
    ['concurrency NaN', { concurrency: Number.NaN }, /options\.concurrency.*got NaN/],
    ["concurrency '4'", { concurrency: '4' }, /options\.concurrency.*got "4"/],
    ['concurrency 1.5', { concurrency: 1.5 }, /options\.concurrency/],
    ['pollMs 0', { pollMs: 0 }, /options\.pollMs: expected a number of milliseconds from 1/],
    ['pollMs Infinity', { pollMs: Number.POSITIVE_INFINITY }, /options\.pollMs/],
    ['pollMs past what a timer waits', { pollMs: 2 ** 31 }, /options\.pollMs/],
    ['timeoutMs -1', { timeoutMs: -1 }, /options\.timeoutMs/],
    ['idleMs -5', { idleMs: -5 }, /options\.idleMs/],
    ['onError not a function', { onError: 'log' }, /options\.onError: expected a function/],
    ['agent missing', { agent: undefined }, /options\.agent: expected a function/],
    [
      'a key in the wrong case',
      { Concurrency: 2 },
      /options\.Concurrency: unknown key; did you mean concurrency\?/,
    ],
    [
      'an unknown key',
      { threads: 2 },
      /options\.threads: unknown key; expected one of pool, agent, concurrency/,
    ],
  ]
  for (const [name, bad, message] of rows)
    it(`R57: ${name} throws InvalidInputError naming the option, and asks for no connection`, () => {
      const pool = fakePool()
      const error = refused(() => createWorker({ pool, agent, ...bad } as never))
      expect(error.message).toMatch(/^createWorker\(\): /)
      expect(error.message).toMatch(message)
      expect(pool.asked).toBe(0)
    })

  it('R57: no options, or a pool that is not one, throw InvalidInputError', () => {
    expect(refused(() => createWorker(undefined as never)).message).toMatch(/options: expected an object/)
    expect(refused(() => createWorker({ pool: {} as never, agent })).message).toMatch(/options\.pool/)
  })

  it('R57: a one-connection pool is refused, naming the concurrency + 2 connections the worker needs', () => {
    const pool = fakePool(1)
    const error = refused(() => createWorker({ pool, agent }))
    expect(error.message).toMatch(/options\.pool: the pool opens at most 1 connection/)
    expect(error.message).toMatch(/concurrency \+ 2 = 6/)
    expect(pool.asked).toBe(0)
    expect(refused(() => createWorker({ pool: fakePool(4), agent, concurrency: 3 })).message).toMatch(/= 5/)
  })

  it('R57: a pool with concurrency + 2 connections is enough', async () => {
    const worker = createWorker({ pool: fakePool(3), agent, concurrency: 1, pollMs: 60_000 })
    await worker.close()
  })
})

describe('R55: connectSessions refuses bad options before it starts', () => {
  const rows: [string, Record<string, unknown>, RegExp][] = [
    ['pollMs 0', { pollMs: 0 }, /options\.pollMs/],
    ['pollMs NaN', { pollMs: Number.NaN }, /options\.pollMs.*got NaN/],
    ["timeoutMs '10'", { timeoutMs: '10' }, /options\.timeoutMs.*got "10"/],
    ['timeoutMs -1', { timeoutMs: -1 }, /options\.timeoutMs/],
    ['a misspelled option', { pollMS: 10 }, /options\.pollMS: unknown key; did you mean pollMs\?/],
  ]
  for (const [name, bad, message] of rows)
    it(`R55: ${name} throws InvalidInputError naming the option`, () => {
      const pool = fakePool()
      const error = refused(() => connectSessions(pool as PostgresPool, bad as never))
      expect(error.message).toMatch(/^connectSessions\(\): /)
      expect(error.message).toMatch(message)
      expect(pool.asked).toBe(0)
    })

  it('R55: a pool that is not one throws InvalidInputError', () => {
    expect(refused(() => connectSessions(null as never)).message).toMatch(/pool: expected a pg\.Pool/)
  })
})
