import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../src/contracts/errors.js'
import { parseCancelArgs } from '../../src/messages/parseCancelArgs.js'
import { parseSendOptions } from '../../src/messages/parseSendOptions.js'

const thrown = (f: () => unknown): InvalidInputError => {
  try {
    f()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return error as InvalidInputError
  }
  throw new Error('expected InvalidInputError')
}

describe('parseSendOptions', () => {
  it.each([
    [
      'undefined options',
      undefined,
      "options: required: {target: 'next-turn' | 'next-step', wakeup: boolean}; or call followup(), steer() or inject()",
    ],
    [
      'null options',
      null,
      "options: expected {target: 'next-turn' | 'next-step', wakeup: boolean}; or call followup(), steer() or inject()",
    ],
    [
      'a string',
      'next-step',
      "options: expected {target: 'next-turn' | 'next-step', wakeup: boolean}; or call followup(), steer() or inject() (not the string \"next-step\")",
    ],
    [
      'missing target',
      { wakeup: true },
      'options.target: required (expected one of "next-turn", "next-step")',
    ],
    ['missing wakeup', { target: 'next-turn' }, 'options.wakeup: required'],
    [
      'an unknown target',
      { target: 'now', wakeup: true },
      'options.target: expected one of "next-turn", "next-step"',
    ],
    ['a non-boolean wakeup', { target: 'next-step', wakeup: 1 }, 'options.wakeup: expected boolean'],
    [
      'an extra key',
      { target: 'next-step', wakeup: true, priority: 1 },
      'options.priority: unknown key; expected one of target, wakeup, ifBusy, turn, onApproval, maxSteps, interrupt',
    ],
  ])('R2: refuses %s', (_name, options, expected) => {
    expect(thrown(() => parseSendOptions(options)).message).toBe(`send(): ${expected}`)
  })

  it('R2: returns a frozen copy of valid options', () => {
    const options = { target: 'next-step', wakeup: false }
    const parsed = parseSendOptions(options, 'inject()')
    expect(parsed).toStrictEqual(options)
    expect(parsed).not.toBe(options)
    expect(Object.isFrozen(parsed)).toBe(true)
  })
})

describe('parseCancelArgs', () => {
  it.each([
    ['a missing cause', undefined, undefined, "cause: required: {kind: 'user'} or {kind: 'parent'}"],
    [
      'a string cause',
      'user',
      undefined,
      "cause: expected {kind: 'user'} or {kind: 'parent'} (not the string \"user\")",
    ],
    [
      'the internal disposed cause',
      { kind: 'disposed' },
      undefined,
      'cause.kind: unknown kind "disposed"; expected one of "user", "parent"',
    ],
    ['a cause without kind', {}, undefined, 'cause.kind: required (expected one of "user", "parent")'],
    [
      'extra keys on the cause',
      { kind: 'user', reason: 'x' },
      undefined,
      'cause.reason: unknown key; the only key is kind',
    ],
    ['null options', { kind: 'user' }, null, 'options: expected object'],
    [
      'a non-boolean keepInbox',
      { kind: 'user' },
      { keepInbox: 'yes' },
      'options.keepInbox: expected boolean',
    ],
    [
      'extra option keys',
      { kind: 'parent' },
      { keep: true },
      'options.keep: unknown key; the only option is keepInbox',
    ],
    [
      'both bad at once',
      { kind: 'x' },
      { keepInbox: 1 },
      'cause.kind: unknown kind "x"; expected one of "user", "parent"; options.keepInbox: expected boolean',
    ],
  ])('V5: refuses %s', (_name, cause, options, expected) => {
    expect(thrown(() => parseCancelArgs(cause, options)).message).toBe(`cancel(): ${expected}`)
  })

  it.each([
    [{ kind: 'user' }, undefined, { cause: { kind: 'user' }, options: {} }],
    [{ kind: 'parent' }, {}, { cause: { kind: 'parent' }, options: {} }],
    [{ kind: 'user' }, { keepInbox: true }, { cause: { kind: 'user' }, options: { keepInbox: true } }],
    [{ kind: 'user' }, { keepInbox: undefined }, { cause: { kind: 'user' }, options: {} }],
  ])('V5: accepts %o with %o as frozen copies', (cause, options, expected) => {
    const parsed = parseCancelArgs(cause, options)
    expect(parsed).toStrictEqual(expected)
    expect(parsed.cause).not.toBe(cause)
    expect(Object.isFrozen(parsed.cause) && Object.isFrozen(parsed.options)).toBe(true)
  })
})
