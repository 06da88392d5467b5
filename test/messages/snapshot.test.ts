import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { deepFreeze, jsonSnapshot, MAX_DEPTH } from '../../src/messages/snapshot.js'

class Point {
  x = 1
}
class MyArray extends Array<number> {}

const cyclic = (): unknown => {
  const a: Record<string, unknown> = { b: { c: [] } }
  ;((a.b as Record<string, unknown>).c as unknown[]).push(a.b)
  return a
}
const sparse = (): unknown => {
  const a: unknown[] = [1]
  a[2] = 3
  return a
}

describe('jsonSnapshot', () => {
  it.each([
    ['BigInt', { a: 1n }, ['v', 'a'], 'BigInt is not JSON'],
    ['function', { a: () => 1 }, ['v', 'a'], 'function is not JSON'],
    ['symbol value', [Symbol('s')], ['v', 0], 'symbol is not JSON'],
    ['undefined in an array', [1, undefined], ['v', 1], 'undefined is not JSON (use null)'],
    ['a hole in an array', sparse(), ['v', 1], 'undefined is not JSON (use null)'],
    ['NaN', { n: Number.NaN }, ['v', 'n'], 'NaN is not JSON'],
    ['Infinity', { n: [Number.POSITIVE_INFINITY] }, ['v', 'n', 0], 'Infinity is not JSON'],
    ['-Infinity', Number.NEGATIVE_INFINITY, ['v'], '-Infinity is not JSON'],
    ['a cycle', cyclic(), ['v', 'b', 'c', 0], 'circular reference to v.b'],
    ['a Date', { d: new Date(0) }, ['v', 'd'], 'Date instance is not plain JSON'],
    ['a Map', { m: new Map() }, ['v', 'm'], 'Map instance is not plain JSON'],
    ['a class instance', { p: new Point() }, ['v', 'p'], 'Point instance is not plain JSON'],
    ['an Array subclass', { a: MyArray.from([1]) }, ['v', 'a'], 'MyArray instance is not plain JSON'],
    ['a boxed string', { s: new String('x') }, ['v', 's'], 'String instance is not plain JSON'],
    ['a symbol key', { [Symbol('k')]: 1 }, ['v'], 'symbol key Symbol(k) is not JSON'],
    ['undefined at the root', undefined, ['v'], 'undefined is not JSON (use null)'],
  ])('R2: refuses %s with its path', (_name, value, path, message) => {
    const result = jsonSnapshot(value, 'v')
    expect(result).toStrictEqual({ ok: false, issues: [{ path, message }] })
  })

  it('R2: starts paths with a root path', () => {
    expect(jsonSnapshot({ a: 1n }, ['input', 'content', 2])).toStrictEqual({
      ok: false,
      issues: [{ path: ['input', 'content', 2, 'a'], message: 'BigInt is not JSON' }],
    })
  })

  it('R2: refuses nesting deeper than MAX_DEPTH instead of overflowing the stack', () => {
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const result = jsonSnapshot(deep, 'v')
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.issues[0]?.message).toBe(`nested more than ${MAX_DEPTH} levels deep`)
  })

  it('R2: reports at most 20 issues', () => {
    const result = jsonSnapshot(
      new Array(1e6).fill(() => 1),
      'v',
    )
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.issues).toHaveLength(20)
  })

  it.each([
    ['null', null, null],
    ['a string', 's', 's'],
    ['a boolean', false, false],
    ['-0 as 0', -0, 0],
    ['nested JSON', { a: [1, 'x', null, { b: true }] }, { a: [1, 'x', null, { b: true }] }],
    ['undefined keys dropped', { a: undefined, b: { c: undefined, d: 1 } }, { b: { d: 1 } }],
    [
      'shared references copied',
      (() => {
        const s = { x: 1 }
        return [s, s]
      })(),
      [{ x: 1 }, { x: 1 }],
    ],
    ['a null-prototype object', Object.assign(Object.create(null), { a: 1 }), { a: 1 }],
    ['an object from another realm', runInNewContext('({ a: [1, { b: 2 }] })'), { a: [1, { b: 2 }] }],
  ])('R1: copies %s', (_name, value, expected) => {
    const result = jsonSnapshot(value, 'v')
    expect(result.ok).toBe(true)
    if (result.ok) {
      expect(result.value).toEqual(expected)
      expect(result.value === value).toBe(typeof value !== 'object' || value === null)
    }
  })

  it('R1: ignores non-enumerable properties and extra array properties, as JSON does', () => {
    const arr = Object.assign([1], { extra: 2 })
    const obj = Object.defineProperty({ a: arr }, 'hidden', { value: () => 1, enumerable: false })
    expect(jsonSnapshot(obj, 'v')).toStrictEqual({ ok: true, value: { a: [1] } })
  })

  it('R1: copies a "__proto__" key as an own property, never as the prototype', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}}') as object
    const result = jsonSnapshot(input, 'v')
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype)
    expect(Object.keys(result.value as object)).toStrictEqual(['__proto__'])
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
  })

  it('R1: is a deep copy: mutating the input afterwards changes nothing', () => {
    const input = { a: [{ b: 'x' }], c: { d: 1 } }
    const result = jsonSnapshot(input, 'v')
    input.a[0]!.b = 'changed'
    input.a.push({ b: 'y' })
    input.c.d = 2
    expect(result).toStrictEqual({ ok: true, value: { a: [{ b: 'x' }], c: { d: 1 } } })
    expect(Object.isFrozen(input)).toBe(false)
  })

  it('R1: is deep-frozen: mutating the copy throws', () => {
    const result = jsonSnapshot({ a: [{ b: 'x' }] }, 'v')
    if (!result.ok) throw new Error('expected ok')
    const value = result.value as { a: { b: string }[] }
    expect(() => {
      value.a[0]!.b = 'y'
    }).toThrow(TypeError)
    expect(() => value.a.push({ b: 'z' })).toThrow(TypeError)
    expect(() => {
      ;(value as Record<string, unknown>).c = 1
    }).toThrow(TypeError)
  })
})

describe('deepFreeze', () => {
  it('R1: freezes in place, deeply, and survives cycles', () => {
    const value = { a: [{ b: 1 }], self: undefined as unknown }
    value.self = value
    expect(deepFreeze(value)).toBe(value)
    expect(Object.isFrozen(value)).toBe(true)
    expect(Object.isFrozen(value.a)).toBe(true)
    expect(Object.isFrozen(value.a[0])).toBe(true)
  })

  it('R1: leaves primitives and typed arrays alone', () => {
    expect(deepFreeze(1)).toBe(1)
    const bytes = new Uint8Array([1])
    expect(deepFreeze({ bytes }).bytes).toBe(bytes)
  })
})
