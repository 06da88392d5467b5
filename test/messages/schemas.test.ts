import { describe, expect, it } from 'vitest'
import type * as z from 'zod/mini'
import {
  cancelOptionsSchema,
  contentBlockSchema,
  messageSourceSchema,
  userMessageDataSchema,
} from '../../src/messages/schemas.js'

// The schemas also hold on their own (for data that did not come through `jsonSnapshot`).
describe('schemas', () => {
  it.each<[string, z.ZodMiniType<unknown>, unknown]>([
    ['a custom kind with a BigInt field', messageSourceSchema, { kind: 'x', n: 1n }],
    ['a known kind with a Date field', messageSourceSchema, { kind: 'user', at: new Date() }],
    [
      'a goal change that is not JSON',
      messageSourceSchema,
      { kind: 'goal', goalId: 'g', revision: 0, round: 0, change: () => 1 },
    ],
    ['undefined as a source', messageSourceSchema, undefined],
    [
      'a deeply bad tool result',
      contentBlockSchema,
      {
        type: 'tool-result',
        toolCallId: 'c',
        content: [{ type: 'tool-result', toolCallId: 'd', content: [{ type: 'x' }] }],
      },
    ],
    ['content with no blocks', userMessageDataSchema, { content: [], source: { kind: 'user' } }],
    ['null cancel options', cancelOptionsSchema, null],
  ])('R2: refuses %s', (_name, schema, value) => {
    expect(schema.safeParse(value).success).toBe(false)
  })

  it.each<[string, z.ZodMiniType<unknown>, unknown]>([
    ['a custom kind', messageSourceSchema, { kind: 'x', n: [1, { a: null }] }],
    [
      'a nested tool result',
      contentBlockSchema,
      {
        type: 'tool-result',
        toolCallId: 'c',
        content: [{ type: 'tool-result', toolCallId: 'd', content: [] }],
      },
    ],
    ['no cancel options', cancelOptionsSchema, undefined],
  ])('R2: accepts %s', (_name, schema, value) => {
    expect(schema.safeParse(value)).toStrictEqual({ success: true, data: value })
  })
})
