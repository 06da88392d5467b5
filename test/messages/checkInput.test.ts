/**
 * R2: every check of caller input goes through one helper: it lists every problem at once in one
 * InvalidInputError, says which name an unknown one most likely meant, and refuses values whose
 * reading throws like any other bad value.
 */

import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { InvalidInputError } from '../../src/contracts/errors.js'
import { checkInput } from '../../src/messages/checkInput.js'
import { describeValue } from '../../src/messages/describeValue.js'
import { didYouMean } from '../../src/messages/didYouMean.js'
import { optional, timerMs, wholeNumber } from '../../src/messages/fieldRules.js'
import { parseContextInput } from '../../src/messages/parseContextInput.js'
import { userSource } from '../../src/messages/userText.js'

const refusal = (f: () => unknown): InvalidInputError => {
  try {
    f()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error).toBeInstanceOf(TypeError)
    return error as InvalidInputError
  }
  throw new Error('expected InvalidInputError')
}

describe('didYouMean: the one message for an unknown name', () => {
  const keys = ['concurrency', 'pollMs', 'timeoutMs']
  it.each([
    ['a name in the wrong case', 'PollMS', keys, 'unknown key; did you mean pollMs?'],
    ['a typo', 'concurency', keys, 'unknown key; did you mean concurrency?'],
    [
      'the nearest of two close names',
      'timeoutM',
      ['timeout', 'timeoutMs'],
      'unknown key; did you mean timeout?',
    ],
    ['a name near none', 'threads', keys, 'unknown key; expected one of concurrency, pollMs, timeoutMs'],
    [
      'a short name is no typo of a longer one',
      'id',
      ['ifBusy', 'turn'],
      'unknown key; expected one of ifBusy, turn',
    ],
    ['one known name', 'keep', ['keepInbox'], 'unknown key; the only key is keepInbox'],
  ])('R2: %s', (_what, name, known, message) => {
    expect(didYouMean(name, known)).toBe(message)
  })

  it('R2: says what the names are', () => {
    expect(didYouMean('folowup', ['followup', 'steer'], 'command')).toBe(
      'unknown command; did you mean followup?',
    )
    expect(didYouMean('keep', ['keepInbox'], 'key', 'option')).toBe(
      'unknown key; the only option is keepInbox',
    )
  })
})

describe('checkInput: every problem in one InvalidInputError', () => {
  const rules = { count: optional(wholeNumber(1, 'such as 4')), waitMs: optional(timerMs(1)) }
  const check = (options: object) =>
    checkInput('make()', (c) => {
      c.knownKeys(options, Object.keys(rules), ['options'])
      c.fields(options, ['options'], rules)
      return 'made'
    })

  it('R2: returns what the checks made when nothing is wrong', () => {
    expect(check({ count: 2 })).toBe('made')
  })

  it('R2: lists an unknown key and every bad field, in order', () => {
    expect(refusal(() => check({ count: 0, waitMs: 'soon', Count: 1 })).message).toBe(
      'make(): options.Count: unknown key; did you mean count?; ' +
        'options.count: expected a whole number, 1 or more (such as 4), got 0; ' +
        'options.waitMs: expected a number of milliseconds from 1 to 2147483647, got "soon"',
    )
  })

  it('R2: a getter that throws is a problem at its path, and the other fields are still checked', () => {
    const options = {
      get count(): number {
        throw new Error('no count')
      },
      waitMs: -1,
    }
    const error = refusal(() => check(options))
    expect(error.issues.map((i) => i.path.join('.'))).toEqual(['options.count', 'options.waitMs'])
    expect(error.message).toContain(
      'options.count: could not be read (a getter or Proxy trap threw: no count)',
    )
  })

  it('R2: a revoked Proxy is refused, never escapes as the raw TypeError', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    const error = refusal(() => check(proxy))
    expect(error.issues[0]?.path).toEqual(['options'])
  })

  it('R2: a zod parse names the keys its schema allows for an unknown one', () => {
    const schema = z.strictObject({ reason: z.string().optional() })
    const parse = (value: unknown) => checkInput('decide()', (c) => c.parse(schema, value, ['options']))
    expect(parse({ reason: 'ok' })).toEqual({ reason: 'ok' })
    expect(refusal(() => parse({ reasn: 'x' })).message).toBe(
      'decide(): options.reasn: unknown key; did you mean reason?',
    )
    expect(refusal(() => parse({ why: 'x' })).message).toBe(
      'decide(): options.why: unknown key; the only option is reason',
    )
  })

  it('R2: an unknown key of a content block names the keys of that kind of block', () => {
    const input = { content: [{ type: 'text', txt: 'hi' }], source: { kind: 'user' } }
    expect(refusal(() => parseContextInput(input, userSource, 'send()')).message).toBe(
      'send(): input.content[0].text: required; input.content[0].txt: unknown key; did you mean text?',
    )
    const image = { content: [{ type: 'image', mediaType: 'image/png', url: 'https://x/a.png', alt: 'a' }] }
    expect(
      refusal(() => parseContextInput({ ...image, source: { kind: 'user' } }, userSource, 'send()')).message,
    ).toBe('send(): input.content[0].alt: unknown key; expected one of type, mediaType, data, url')
  })
})

describe('describeValue', () => {
  it('R2: quotes short strings, names long ones and objects, and never throws', () => {
    const { proxy, revoke } = Proxy.revocable([], {})
    revoke()
    expect([describeValue('4'), describeValue(Number.NaN), describeValue(null), describeValue([])]).toEqual([
      '"4"',
      'NaN',
      'null',
      'an array',
    ])
    expect(describeValue('x'.repeat(1000))).toBe('a string of 1000 characters')
    expect(describeValue(proxy)).toBe('an object')
  })
})
