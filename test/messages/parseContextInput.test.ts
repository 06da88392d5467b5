import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../src/contracts/errors.js'
import type { MessageSource, UserMessageData } from '../../src/contracts/messages.js'
import { renderGoalChange } from '../../src/messages/goalRender.js'
import { parseContextInput } from '../../src/messages/parseContextInput.js'
import { userSource } from '../../src/messages/userText.js'

/** `send`'s input as data, the way the agent validates it (`parseSendValue` shares this path). */
const parseSendInput = (input: unknown, call = 'send()'): UserMessageData =>
  parseContextInput(input, userSource, call)

const text = (t: string) => ({ type: 'text', text: t })
const user = { kind: 'user' }
const msg = (content: unknown, source: unknown = user) => ({ content, source })

const thrown = (f: () => unknown): InvalidInputError => {
  try {
    f()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error).toBeInstanceOf(TypeError)
    return error as InvalidInputError
  }
  throw new Error('expected InvalidInputError')
}

class Prompt {
  content = [text('x')]
  source = user
}
const cyclicSource = () => {
  const source: Record<string, unknown> = { kind: 'x' }
  source.self = source
  return source
}

describe('parseSendInput', () => {
  // [name, input, first issue as formatted in the message]
  it.each([
    ['undefined input', undefined, 'input: required: a string, or {content, source}'],
    ['null input', null, 'input: expected a string or a plain object {content, source}'],
    ['a number', 42, 'input: expected a string or a plain object {content, source}'],
    ['an array', [text('x')], 'input: expected a string or a plain object {content, source}'],
    ['a class instance', new Prompt(), 'input: expected a string or a plain object {content, source}'],
    [
      'missing content',
      { source: user },
      "input.content: required: a non-empty array of blocks such as [{type: 'text', text: 'hi'}]; to send plain text, pass the string itself instead of {content, source}",
    ],
    [
      'empty content',
      msg([]),
      "input.content: must not be empty: a non-empty array of blocks such as [{type: 'text', text: 'hi'}]; to send plain text, pass the string itself instead of {content, source}",
    ],
    [
      'content not an array',
      msg(text('x')),
      "input.content: expected a non-empty array of blocks such as [{type: 'text', text: 'hi'}]",
    ],
    ['a block that is not an object', msg(['hi']), 'input.content[0]: expected object'],
    ['a text block without text', msg([{ type: 'text' }]), 'input.content[0].text: required'],
    ['a non-string text', msg([{ type: 'text', text: 1 }]), 'input.content[0].text: expected string'],
    [
      'an unknown block type',
      msg([{ type: 'video', url: 'u' }]),
      'input.content[0].type: unknown block type "video"',
    ],
    ['a block without type', msg([{ text: 'x' }]), 'input.content[0].type: required'],
    [
      'an unknown key on a block',
      msg([{ type: 'text', text: 'x', cache: true }]),
      'input.content[0].cache: unknown key',
    ],
    ['a reasoning block without text', msg([{ type: 'reasoning' }]), 'input.content[0].text: required'],
    [
      'tool-call arguments as an object',
      msg([{ type: 'tool-call', id: 'c', name: 'n', arguments: {} }]),
      'input.content[0].arguments: expected string',
    ],
    [
      'a bad nested tool-result block',
      msg([{ type: 'tool-result', toolCallId: 'c', content: [{ type: 'text', text: 1 }] }]),
      'input.content[0].content[0].text: expected string',
    ],
    [
      'a bad tool-result code',
      msg([{ type: 'tool-result', toolCallId: 'c', content: [], code: 'OOPS' }]),
      'input.content[0].code: expected one of "UNKNOWN_TOOL"',
    ],
    [
      'a non-boolean isError',
      msg([{ type: 'tool-result', toolCallId: 'c', content: [], isError: 'yes' }]),
      'input.content[0].isError: expected boolean',
    ],
    ['a BigInt in a block', msg([{ type: 'text', text: 1n }]), 'input.content[0].text: BigInt is not JSON'],
    [
      'a function in the source',
      msg([text('x')], { kind: 'x', f: () => 1 }),
      'input.source.f: function is not JSON',
    ],
    ['a symbol value', msg([text('x')], { kind: 'x', s: Symbol('s') }), 'input.source.s: symbol is not JSON'],
    [
      'a symbol key',
      msg([text('x')], { kind: 'x', [Symbol('k')]: 1 }),
      'input.source: symbol key Symbol(k) is not JSON',
    ],
    [
      'undefined in an array',
      msg([text('x')], { kind: 'x', list: [undefined] }),
      'input.source.list[0]: undefined is not JSON (use null)',
    ],
    ['NaN', msg([text('x')], { kind: 'x', n: Number.NaN }), 'input.source.n: NaN is not JSON'],
    [
      'Infinity',
      msg([text('x')], { kind: 'x', n: Number.POSITIVE_INFINITY }),
      'input.source.n: Infinity is not JSON',
    ],
    ['a cycle', msg([text('x')], cyclicSource()), 'input.source.self: circular reference to input.source'],
    [
      'a Date',
      msg([text('x')], { kind: 'x', at: new Date(0) }),
      'input.source.at: Date instance is not plain JSON',
    ],
    [
      'a class instance in content',
      msg([new Prompt()]),
      'input.content[0]: Prompt instance is not plain JSON',
    ],
    ['missing source', { content: [text('x')] }, "input.source: required (for example {kind: 'user'})"],
    [
      'a string source',
      msg([text('x')], 'user'),
      'input.source: expected an object such as {kind: \'user\'} (not the string "user")',
    ],
    ['a source without kind', msg([text('x')], { plugin: 'p' }), 'input.source.kind: required'],
    ['a non-string kind', msg([text('x')], { kind: 7 }), 'input.source.kind: expected string'],
    ['an empty kind', msg([text('x')], { kind: '' }), 'input.source.kind: must not be empty'],
    ['a plugin source without plugin', msg([text('x')], { kind: 'plugin' }), 'input.source.plugin: required'],
    [
      'a tool source with a numeric tool',
      msg([text('x')], { kind: 'tool', tool: 1 }),
      'input.source.tool: expected string',
    ],
    [
      'a goal source with an empty goalId',
      msg([text('x')], { kind: 'goal', goalId: '', revision: 0, round: 0 }),
      'input.source.goalId: must not be empty',
    ],
    [
      'a goal source with a negative revision',
      msg([text('x')], { kind: 'goal', goalId: 'g', revision: -1, round: 0 }),
      'input.source.revision: must be >= 0',
    ],
    [
      'a goal source with a fractional round',
      msg([text('x')], { kind: 'goal', goalId: 'g', revision: 0, round: 1.5 }),
      'input.source.round: expected integer',
    ],
    [
      'a goal source without round',
      msg([text('x')], { kind: 'goal', goalId: 'g', revision: 0 }),
      'input.source.round: required',
    ],
  ])('R2: refuses %s', (_name, input, expected) => {
    const error = thrown(() => parseSendInput(input))
    expect(error.message.startsWith(`send(): ${expected}`)).toBe(true)
    expect(error.issues.length).toBeGreaterThan(0)
    expect(error.issues[0]?.path[0]).toBe('input')
  })

  it('R2: names the call and reports every issue', () => {
    const error = thrown(() =>
      parseSendInput(msg([{ type: 'text', text: 1 }, { type: 'x' }], { kind: '' }), 'steer()'),
    )
    expect(error.message).toBe(
      'steer(): input.content[0].text: expected string; ' +
        'input.content[1].type: unknown block type "x"; ' +
        'expected one of "text", "reasoning", "tool-call", "tool-result", "image", "file"; ' +
        'input.source.kind: must not be empty',
    )
    expect(error.issues.map((issue) => issue.path)).toStrictEqual([
      ['input', 'content', 0, 'text'],
      ['input', 'content', 1, 'type'],
      ['input', 'source', 'kind'],
    ])
  })

  const change = { goalId: 'g1', revision: 2, objective: 'o', phase: 'active', maxRounds: null } as const
  const goal = { kind: 'goal', goalId: 'g1', revision: 2, round: 0, change }
  it.each<[string, unknown, UserMessageData]>([
    ['the string shorthand', 'hi', { content: [text('hi')], source: user } as UserMessageData],
    ['an empty string', '', { content: [text('')], source: user } as UserMessageData],
    ['a user source', msg([text('a')]), msg([text('a')]) as UserMessageData],
    [
      'a plugin source with an empty name',
      msg([text('a')], { kind: 'plugin', plugin: '' }),
      msg([text('a')], { kind: 'plugin', plugin: '' }) as UserMessageData,
    ],
    [
      'a tool source',
      msg([text('a')], { kind: 'tool', tool: 'search' }),
      msg([text('a')], { kind: 'tool', tool: 'search' }) as UserMessageData,
    ],
    [
      'a goal change (canonical content)',
      msg([text(renderGoalChange(change))], goal),
      msg([text(renderGoalChange(change))], goal) as UserMessageData,
    ],
    [
      'a goal source without change',
      msg([text('a')], { ...goal, round: 3, change: undefined }),
      msg([text('a')], { kind: 'goal', goalId: 'g1', revision: 2, round: 3 }) as UserMessageData,
    ],
    [
      'extra fields on a known kind',
      msg([text('a')], { kind: 'user', via: { app: 'cli' } }),
      msg([text('a')], { kind: 'user', via: { app: 'cli' } }) as UserMessageData,
    ],
    [
      'a custom kind',
      msg([text('a')], { kind: 'webhook', hook: 'h', n: [1, null] }),
      msg([text('a')], { kind: 'webhook', hook: 'h', n: [1, null] }) as UserMessageData,
    ],
    [
      'every block type',
      msg([
        text('t'),
        { type: 'reasoning', text: 'r' },
        { type: 'tool-call', id: 'c', name: 'n', arguments: '{}' },
        { type: 'tool-result', toolCallId: 'c', content: [text('ok')], isError: false, code: 'TOOL_ERROR' },
      ]),
      msg([
        text('t'),
        { type: 'reasoning', text: 'r' },
        { type: 'tool-call', id: 'c', name: 'n', arguments: '{}' },
        { type: 'tool-result', toolCallId: 'c', content: [text('ok')], isError: false, code: 'TOOL_ERROR' },
      ]) as UserMessageData,
    ],
    [
      'undefined keys dropped',
      msg([{ type: 'tool-result', toolCallId: 'c', content: [], isError: undefined }], {
        kind: 'x',
        y: undefined,
      }),
      msg([{ type: 'tool-result', toolCallId: 'c', content: [] }], { kind: 'x' }) as UserMessageData,
    ],
    [
      'other top-level keys ignored (an AgentMessage sent again)',
      { id: '01J', ...msg([text('a')]) },
      msg([text('a')]) as UserMessageData,
    ],
  ])('R2: accepts %s', (_name, input, expected) => {
    const data = parseSendInput(input)
    expect(data).toStrictEqual(expected)
    expect(Object.keys(data)).toStrictEqual(['content', 'source'])
  })

  it('R1: the accepted data is a deep copy: later mutation of the caller object changes nothing', () => {
    const input = { content: [{ type: 'text', text: 'a' }], source: { kind: 'user', tags: ['x'] } }
    const data = parseSendInput(input)
    input.content[0]!.text = 'b'
    input.content.push({ type: 'text', text: 'c' })
    input.source.tags.push('y')
    expect(data).toStrictEqual({ content: [text('a')], source: { kind: 'user', tags: ['x'] } })
    expect(Object.isFrozen(input)).toBe(false)
  })

  it.each<[string, (data: UserMessageData) => void]>([
    ['the message', (d) => Object.assign(d, { content: [] })],
    ['the content array', (d) => (d.content as unknown[]).push(text('x'))],
    ['a block', (d) => Object.assign(d.content[0] as object, { text: 'y' })],
    ['the source', (d) => Object.assign(d.source, { kind: 'plugin' })],
    ['a nested source value', (d) => (d.source as unknown as { tags: string[] }).tags.push('y')],
  ])('R1: the accepted data is deep-frozen: mutating %s throws', (_name, mutate) => {
    const data = parseSendInput({ content: [text('a')], source: { kind: 'user', tags: ['x'] } })
    expect(() => mutate(data)).toThrow(TypeError)
  })

  it('R1: the string shorthand is frozen too', () => {
    const data = parseSendInput('hi')
    expect(Object.isFrozen(data) && Object.isFrozen(data.content) && Object.isFrozen(data.content[0])).toBe(
      true,
    )
    expect(Object.isFrozen(data.source)).toBe(true)
  })
})

describe('parseContextInput', () => {
  const toolSource: MessageSource = { kind: 'tool', tool: 'search' }

  it('R22: a string means text from the default source', () => {
    expect(parseContextInput('found 3', toolSource, 'ctx.context()')).toStrictEqual({
      content: [text('found 3')],
      source: { kind: 'tool', tool: 'search' },
    })
  })

  it('R2: paths start with the given root', () => {
    const error = thrown(() =>
      parseContextInput({ content: [] }, toolSource, 'promptSubmit', ['decision', 'additionalContexts', 1]),
    )
    expect(error.message).toBe(
      'promptSubmit: decision.additionalContexts[1].content: must not be empty; decision.additionalContexts[1].source: required',
    )
  })
})
