import { describe, expect, it } from 'vitest'
import { errorText, MAX_ERROR_TEXT } from '../../src/messages/errorText.js'
import { hostileValues } from '../support/hostile.js'

describe('errorText', () => {
  it.each([
    ['a string', 'boom', 'boom'],
    ['an Error', new Error('boom'), 'boom'],
    ['a plain {message}', { message: 'boom' }, 'boom'],
    ['a number message', { message: 42 }, '42'],
    ['a symbol', Symbol('s'), 'Symbol(s)'],
    ['a BigInt', 10n, '10'],
    ['undefined', undefined, 'undefined'],
    ['null', null, 'null'],
    ['Object.create(null)', Object.create(null), '[object Object]'],
  ])('%s', (_name, value, text) => {
    expect(errorText(value)).toBe(text)
  })

  it.each(Object.entries(hostileValues()))('never throws and always gives a string: %s', (_name, value) => {
    const text = errorText(value)
    expect(typeof text).toBe('string')
    expect(text.length).toBeLessThanOrEqual(MAX_ERROR_TEXT + 40)
  })

  it('cuts a long text and says how much was cut', () => {
    const text = errorText(new Error('x'.repeat(MAX_ERROR_TEXT + 10)))
    expect(text).toBe(`${'x'.repeat(MAX_ERROR_TEXT)}… (10 more characters)`)
  })

  it('a revoked Proxy gets a placeholder', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    expect(errorText(proxy)).toBe('a thrown object that cannot be read')
  })
})
