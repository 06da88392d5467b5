import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseContextData } from '../../src/messages/parseContextInput.js'
import { parseSendValue } from '../../src/messages/parseSendValue.js'
import { userText } from '../../src/messages/userText.js'
import { userTextFastPath } from '../../src/messages/userTextFastPath.js'

/** Blocks around the fast path's shape: the shape itself and near misses on every rule. */
const block = fc.oneof(
  { weight: 6, arbitrary: fc.string().map((text) => ({ type: 'text', text })) },
  fc.string().map((text) => ({ text, type: 'text' })),
  fc.string().map((text) => ({ type: 'reasoning', text })),
  fc.string().map((text) => ({ type: 'text', text, extra: 1 })),
  fc.constant({ type: 'text' }),
  fc.constant({ type: 'text', text: undefined }),
  fc.integer().map((text) => ({ type: 'text', text })),
  fc.string().map((text) => ({ type: 'text', text, [Symbol('s')]: 1 })),
  fc.string().map((text) => Object.assign(Object.create(null) as object, { type: 'text', text })),
  fc.string().map(
    (text) =>
      new (class Block {
        type = 'text'
        text = text
      })(),
  ),
  fc.string().map((text) => ({
    type: 'text',
    get text() {
      return text
    },
  })),
  fc.constant(null),
  fc.string(),
)

const source = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'user' }) },
  fc.constant({ kind: 'user', tags: ['x'] }),
  fc.constant({ kind: 'plugin', plugin: 'p' }),
  fc.constant({ kind: 'user', [Symbol('s')]: 1 }),
  fc.constant({ kind: '' }),
  fc.constant({}),
  fc.constant(undefined),
  fc.constant(Object.assign(Object.create(null) as object, { kind: 'user' })),
)

const textBlock = fc.string().map((text) => ({ type: 'text', text }))
const content = fc.oneof(
  { weight: 8, arbitrary: fc.array(textBlock, { minLength: 1, maxLength: 4 }) },
  { weight: 4, arbitrary: fc.array(block, { maxLength: 4 }) },
  fc.constant([]),
  fc.constant('text'),
  fc.constant({ 0: { type: 'text', text: 'a' }, length: 1 }),
)

describe('the text-from-the-user fast path of send', () => {
  it('R1, R2: whatever it accepts, the full path (snapshot + zod) accepts with an equal, frozen result', () => {
    let taken = 0
    let runs = 0
    fc.assert(
      fc.property(content, source, (c, s) => {
        runs++
        const value = userTextFastPath(c, s)
        if (value === undefined) return
        taken++
        const fast = typeof value === 'string' ? userText(value) : value
        const full = parseContextData({ content: c, source: s }, 'send()', ['input'])
        expect(full).toStrictEqual(fast)
        // Same keys in the same order too: the file store writes JSON lines.
        expect(JSON.stringify(fast)).toBe(JSON.stringify(full))
        expect(Object.isFrozen(fast) && Object.isFrozen(fast.content) && Object.isFrozen(fast.source)).toBe(
          true,
        )
        for (const b of fast.content) expect(Object.isFrozen(b)).toBe(true)
      }),
      { numRuns: 2000 },
    )
    // The generator must reach the fast path often, or this property says nothing.
    expect(taken).toBeGreaterThan(runs / 8)
  })

  it('R1: the accepted copy does not follow later changes of the caller object', () => {
    const input = {
      content: [
        { type: 'text', text: 'a' },
        { text: 'b', type: 'text' },
      ],
      source: { kind: 'user' },
    }
    const fast = userTextFastPath(input.content, input.source)
    ;(input.content[0] as { text: string }).text = 'changed'
    input.content.push({ type: 'text', text: 'c' })
    expect(fast).toEqual({
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
      source: { kind: 'user' },
    })
  })

  it('the near misses take the full path (so its errors and rules apply)', () => {
    const misses: [unknown, unknown][] = [
      [[], { kind: 'user' }],
      [[{ type: 'text', text: 'a', x: 1 }], { kind: 'user' }],
      [[{ type: 'text', text: 1 }], { kind: 'user' }],
      [[{ type: 'text', text: 'a' }], { kind: 'user', tags: [] }],
      [[{ type: 'text', text: 'a' }], { kind: 'plugin', plugin: 'p' }],
      [[{ type: 'text', text: 'a', [Symbol('s')]: 1 }], { kind: 'user' }],
    ]
    for (const [c, s] of misses) expect(userTextFastPath(c, s)).toBeUndefined()
  })

  it('parseSendValue gives the string only when the value is its shorthand, always on the fast path', () => {
    let named = 0
    fc.assert(
      fc.property(content, source, (c, s) => {
        let value: ReturnType<typeof parseSendValue>
        try {
          value = parseSendValue({ content: c, source: s })
        } catch {
          return
        }
        // The full path (snapshot + zod) is the reference, not another entry point into the same code.
        const data = parseContextData({ content: c, source: s }, 'send()', ['input'])
        const isShorthand =
          data.content.length === 1 &&
          JSON.stringify(data) === JSON.stringify(userText((data.content[0] as { text: string }).text))
        // Sound: a string rebuilds the same value, the same JSON (the queue relies on it).
        if (typeof value === 'string') expect(JSON.stringify(userText(value))).toBe(JSON.stringify(data))
        else expect(value).toStrictEqual(data)
        // Complete on the fast path (the full path's rare inputs may be queued whole).
        if (isShorthand && userTextFastPath(c, s) !== undefined) expect(typeof value).toBe('string')
        if (typeof value === 'string') named++
      }),
      { numRuns: 2000 },
    )
    expect(named).toBeGreaterThan(50)
    expect(parseSendValue('s')).toBe('s')
    expect(parseSendValue({ content: [{ text: 's', type: 'text' }], source: { kind: 'user' } })).toEqual({
      content: [{ text: 's', type: 'text' }],
      source: { kind: 'user' },
    })
  })

  it('a getter in the shorthand shape is read once (the value checked is the value kept)', () => {
    let reads = 0
    const block = {
      type: 'text',
      get text() {
        reads++
        return `read ${reads}`
      },
    }
    expect(parseSendValue({ content: [block], source: { kind: 'user' } })).toBe('read 1')
    expect(reads).toBe(1)
  })
})
