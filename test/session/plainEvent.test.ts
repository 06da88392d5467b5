/**
 * The fast structural check that spares the schema on the common events (R37): it may only ever
 * vouch for what `sessionEventSchema` accepts, and a log with a corrupt line is still refused,
 * with the schema's own message, when every other line takes the fast path.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fileStore, SessionLogError, sessionEventSchema } from '../../src/index.js'
import { isPlainEvent } from '../../src/session/plainEvent.js'

const text = { type: 'text', text: 'hi' }
const user = { kind: 'user' }
const VALID: readonly unknown[] = [
  { seq: 1, type: 'turn/start', data: { turn: 1, trigger: { kind: 'message', source: user } } },
  { seq: 1, type: 'turn/start', data: { turn: 2, trigger: { kind: 'message', source: user, id: 'm1' } } },
  { seq: 1, type: 'turn/start', data: { turn: 2, trigger: { kind: 'retry' } } },
  { seq: 2, type: 'user/message', data: { content: [text], source: user } },
  {
    seq: 2,
    type: 'user/message',
    data: { content: [text], source: { kind: 'plugin', plugin: 'p' }, id: 'm' },
  },
  {
    seq: 3,
    type: 'steering/message',
    data: { turn: 1, content: [text], source: { kind: 'tool', tool: 't' }, id: 'm' },
  },
  { seq: 3, type: 'step/start', data: { turn: 1, step: 1 } },
  { seq: 4, type: 'assistant/message', data: { turn: 1, step: 1, content: [] } },
  {
    seq: 4,
    type: 'assistant/message',
    data: {
      turn: 1,
      step: 1,
      content: [
        text,
        { type: 'reasoning', text: 'r' },
        { type: 'tool-call', id: 'c', name: 'n', arguments: '{}' },
      ],
      usage: { inputTokens: 1, outputTokens: 2.5 },
    },
  },
  {
    seq: 5,
    type: 'tool/call',
    data: { turn: 1, step: 1, call: { type: 'tool-call', id: 'c', name: 'n', arguments: '' } },
  },
  {
    seq: 6,
    type: 'tool/result',
    data: {
      turn: 1,
      step: 1,
      result: {
        type: 'tool-result',
        toolCallId: 'c',
        content: [text, { type: 'tool-result', toolCallId: 'd', content: [], isError: true }],
        code: 'TOOL_ERROR',
      },
    },
  },
  { seq: 7, type: 'step/end', data: { turn: 1, step: 1 } },
  { seq: 8, type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
  { seq: 8, type: 'turn/end', data: { turn: 1, reason: { kind: 'error', step: 0, message: 'm' } } },
]

/** Replaces, adds or removes one value somewhere inside `value` (a copy), chosen by `path`. */
const mutate = (value: unknown, path: readonly number[], replacement: unknown): unknown => {
  if (typeof value !== 'object' || value === null) return replacement
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...value }
  const keys = Object.keys(copy)
  const [at = 0, ...rest] = path
  if (keys.length === 0 || at % 7 === 6) {
    ;(copy as Record<string, unknown>)[`extra${at}`] = replacement
    return copy
  }
  const key = keys[at % keys.length] as string
  if (at % 7 === 5 && !Array.isArray(copy)) delete copy[key]
  else
    (copy as Record<string, unknown>)[key] =
      rest.length === 0 ? replacement : mutate((copy as Record<string, unknown>)[key], rest, replacement)
  return copy
}

const odd = fc.oneof(
  fc.constantFrom(undefined, null, 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '', 'x', true, [], {}),
  fc.constantFrom('text', 'user', 'tool-call', 'tool-result', 'completed', 'message', 'TOOL_ERROR', 'goal'),
  fc.jsonValue({ maxDepth: 2 }),
)

describe('isPlainEvent: the fast path of the event check (R37)', () => {
  it('R37: vouches for every common shape the schema accepts', () => {
    for (const event of VALID) {
      expect(sessionEventSchema.safeParse(event).success).toBe(true)
      expect(isPlainEvent(event)).toBe(true)
    }
  })

  it('R37: never vouches for a value the schema refuses (mutated events, property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALID),
        fc.array(fc.nat(40), { minLength: 1, maxLength: 6 }),
        odd,
        (event, path, replacement) => {
          const mutated = mutate(event, path, replacement)
          if (isPlainEvent(mutated)) expect(sessionEventSchema.safeParse(mutated).success).toBe(true)
        },
      ),
      { numRuns: 5_000 },
    )
  })

  it('R37: leaves unusual values to the schema: class instances, goal sources, getters that throw', () => {
    class Ev {
      seq = 1
      type = 'step/start'
      data = { turn: 1, step: 1 }
    }
    expect(isPlainEvent(new Ev())).toBe(false)
    const goal = { kind: 'goal', goalId: 'g', revision: 0, round: 0 }
    expect(isPlainEvent({ seq: 1, type: 'user/message', data: { content: [text], source: goal } })).toBe(
      false,
    )
    const hostile = { seq: 1, type: 'step/start', data: {} }
    Object.defineProperty(hostile.data, 'turn', {
      enumerable: true,
      get: () => {
        throw new Error('no')
      },
    })
    expect(isPlainEvent(hostile)).toBe(false)
  })

  it('R37: a corrupt line among fast-checked lines is still a SessionLogError with the schema message', () => {
    const dir = mkdtempSync(join(tmpdir(), 'steerable-plain-'))
    try {
      const good = (seq: number) => ({ seq, type: 'step/start', data: { turn: 1, step: seq } })
      const cases: [unknown, RegExp][] = [
        [
          { seq: 3, type: 'assistant/message', data: { turn: 1, step: 1, content: [{ ...text, extra: 1 }] } },
          /data\.content\.0/,
        ],
        [{ seq: 3, type: 'step/start', data: { turn: 0, step: 1 } }, /data\.turn/],
        [
          {
            seq: 3,
            type: 'assistant/message',
            data: { turn: 1, step: 1, content: [], usage: { inputTokens: -1, outputTokens: 0 } },
          },
          /usage/,
        ],
        [{ seq: 4, type: 'step/start', data: { turn: 1, step: 1 } }, /seq 4 out of order \(expected 3\)/],
      ]
      for (const [bad, detail] of cases) {
        const path = join(dir, 'log.jsonl')
        const lines = [good(1), good(2), bad, good(4)].map((e) => `${JSON.stringify(e)}\n`).join('')
        writeFileSync(path, lines)
        let error: unknown
        try {
          fileStore(path).close?.()
        } catch (e) {
          error = e
        }
        expect(error).toBeInstanceOf(SessionLogError)
        expect((error as SessionLogError).line).toBe(3)
        expect((error as SessionLogError).message).toMatch(detail)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
