import { describe, expect, it } from 'vitest'
import {
  type Agent,
  createAgent,
  defineTool,
  InvalidInputError,
  type UserMessageData,
} from '../../src/index.js'
import { base64Bytes, isBase64 } from '../../src/messages/mediaBlocks.js'
import { scriptedModel } from '../../src/testing.js'
import { setup } from '../support/agents.js'
import { noArgs, resultsOf } from '../support/tools.js'

/** A 1×1 PNG, 68 bytes. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const image = { type: 'image', mediaType: 'image/png', data: PNG } as const
/** An image of `n` bytes. */
const sized = (n: number) => ({ ...image, data: Buffer.alloc(n, 7).toString('base64') })
const user = { kind: 'user' } as const
const message = (...content: unknown[]) => ({
  content: [{ type: 'text', text: 'look' }, ...content],
  source: user,
})

type Loose = { [call in 'followup' | 'steer' | 'inject']: (input: unknown) => unknown }
const loose = (agent: Agent): Loose => agent as unknown as Loose

const refusal = (call: () => unknown): InvalidInputError => {
  try {
    call()
  } catch (error) {
    if (error instanceof InvalidInputError) return error
    throw error
  }
  throw new Error('expected InvalidInputError')
}

describe('R86: image and file blocks are validated where they come in', () => {
  it('R86: a followup with an image is accepted and kept exactly, and labels show [image]', async () => {
    const { agent, rec } = setup(['seen'])
    const sent: UserMessageData = {
      content: [
        { type: 'text', text: 'look' },
        image,
        { type: 'file', mediaType: 'application/pdf', url: 'https://e.com/a.pdf', filename: 'a.pdf' },
      ],
      source: user,
    }
    agent.followup(sent)
    await agent.whenIdle()
    expect(agent.session.messages()[0]).toEqual({ role: 'user', content: sent.content })
    expect(rec.log).toContain('user(look)')
    agent.followup({ content: [image], source: user })
    await agent.whenIdle()
    expect(rec.log).toContain('user([image])')
  })

  it.each([
    [
      'a media type without a subtype',
      { ...image, mediaType: 'png' },
      'input.content[1].mediaType: expected a media type "type/subtype"',
    ],
    [
      'an image whose media type is not image/*',
      { ...image, mediaType: 'application/pdf' },
      'input.content[1].mediaType: expected an image media type',
    ],
    [
      'a file with a media type with parameters',
      { type: 'file', mediaType: 'text/plain; charset=utf-8', data: 'aGk=' },
      'input.content[1].mediaType: expected a media type',
    ],
    ['base64 of a bad length', { ...image, data: 'abc' }, 'input.content[1].data: expected standard base64'],
    [
      'base64 with a foreign character',
      { ...image, data: 'ab!=' },
      'input.content[1].data: expected standard base64',
    ],
    [
      'base64 with a line break',
      { ...image, data: `${PNG.slice(0, 40)}\n${PNG.slice(40)}` },
      'input.content[1].data: expected standard base64',
    ],
    [
      'base64 with its data: prefix',
      { ...image, data: `data:image/png;base64,${PNG}` },
      'input.content[1].data: expected standard base64',
    ],
    ['empty data', { ...image, data: '' }, 'input.content[1].data: must not be empty'],
    [
      'both data and url',
      { ...image, url: 'https://e.com/a.png' },
      'input.content[1].url: give exactly one of data (base64) and url',
    ],
    [
      'neither data nor url',
      { type: 'image', mediaType: 'image/png' },
      'input.content[1].data: give exactly one of data (base64) and url',
    ],
    [
      'an ftp url',
      { type: 'image', mediaType: 'image/png', url: 'ftp://e.com/a.png' },
      'input.content[1].url: expected an http(s) URL or a data: URL',
    ],
    [
      'a javascript: url',
      { type: 'image', mediaType: 'image/png', url: 'javascript:alert(1)' },
      'input.content[1].url: expected an http(s) URL',
    ],
    [
      'a relative url',
      { type: 'image', mediaType: 'image/png', url: '/a.png' },
      'input.content[1].url: expected an http(s) URL',
    ],
    [
      'a data: url with bad base64',
      { type: 'image', mediaType: 'image/png', url: 'data:image/png;base64,ab!=' },
      'input.content[1].url: the base64 of this data: URL is not valid',
    ],
    [
      'a filename that is no string',
      { type: 'file', mediaType: 'application/pdf', data: 'aGk=', filename: 1 },
      'input.content[1].filename: expected string',
    ],
    ['a filename on an image', { ...image, filename: 'a.png' }, 'input.content[1].filename: unknown key'],
  ])('R86: %s is InvalidInputError naming the path, and nothing changes', (_name, block, expected) => {
    const { agent, rec } = setup(['never'])
    for (const call of ['followup', 'steer', 'inject'] as const) {
      const error = refusal(() => loose(agent)[call](message(block)))
      expect(error.message.startsWith(`${call}(): ${expected}`), error.message).toBe(true)
    }
    expect(agent.inbox).toEqual({ queue: [], outbox: [] })
    expect(agent.session.events).toEqual([])
    expect(rec.log).toEqual([])
  })

  it('R86: a block over maxBlockBytes is refused, measured on the decoded bytes; one at the limit is not', async () => {
    // PNG is 68 bytes decoded (92 base64 characters).
    const { agent, rec } = setup(['ok'], { maxBlockBytes: 68 })
    const over = sized(69)
    const error = refusal(() => agent.followup(message(over) as never))
    expect(error.message).toBe(
      'followup(): input.content[1]: this image is 69 bytes, over maxBlockBytes (68): send a smaller one, a URL, or raise the agent option maxBlockBytes',
    )
    const asDataUrl = { type: 'image', mediaType: 'image/png', url: `data:image/png;base64,${over.data}` }
    expect(refusal(() => agent.steer(message(asDataUrl) as never)).issues[0]?.path).toEqual([
      'input',
      'content',
      1,
    ])
    const nested = { type: 'tool-result', toolCallId: 'c', content: [over] }
    expect(refusal(() => agent.inject(message(nested) as never)).issues[0]?.path).toEqual([
      'input',
      'content',
      1,
      'content',
      0,
    ])
    expect(rec.log).toEqual([])
    agent.followup(message(image) as never)
    await agent.whenIdle()
    expect(rec.log).toContain('user(look)')
  })

  it('R86: replace() checks the agent maxBlockBytes too', () => {
    const { agent } = setup([], { maxBlockBytes: 10 })
    const id = agent.send('wait', { target: 'next-turn', wakeup: false })
    expect(() => agent.replace(id, message(image) as never)).toThrow(/over maxBlockBytes \(10\)/)
    expect(agent.inbox.queue.map((item) => item.message.content)).toEqual([[{ type: 'text', text: 'wait' }]])
  })

  it.each([0, -1, 1.5, '10', Number.NaN, Number.POSITIVE_INFINITY])(
    'R86: maxBlockBytes %s is refused',
    (value) => {
      expect(() => createAgent({ model: scriptedModel([]), maxBlockBytes: value as number })).toThrow(
        'createAgent(): options.maxBlockBytes: expected a whole number, 1 or more (a number of bytes; leave it out for 20 MiB)',
      )
    },
  )
})

describe('R86: tools return and stage images', () => {
  const toolAgent = (execute: (ctx: { context(input: unknown): void }) => unknown, maxBlockBytes?: number) =>
    setup([{ toolCalls: [{ name: 'shot' }] }, 'done'], {
      tools: [
        defineTool({
          name: 'shot',
          description: 'a screenshot',
          parameters: noArgs,
          execute: (_a, ctx) => execute(ctx as never),
        }),
      ],
      ...(maxBlockBytes === undefined ? {} : { maxBlockBytes }),
    })

  it('R86: a tool result with an image is kept as it is', async () => {
    const { agent, rec } = toolAgent(() => ({ content: [{ type: 'text', text: 'the page' }, image] }))
    agent.followup('go')
    await agent.whenIdle()
    expect(resultsOf(rec.durable)[0]?.content).toEqual([{ type: 'text', text: 'the page' }, image])
  })

  it.each([
    [
      'a malformed image',
      [{ ...image, data: 'abc' }],
      'The tool returned an invalid block at result.content.0.data: expected standard base64',
    ],
    [
      'an image over maxBlockBytes',
      [image],
      'The tool returned an invalid block at result.content.0: this image is 68 bytes, over maxBlockBytes (67)',
    ],
  ])(
    'R86: a tool result with %s is INVALID_RESULT, and the turn goes on',
    async (_name, content, expected) => {
      const { agent, rec } = toolAgent(() => ({ content }), 67)
      agent.followup('go')
      await agent.whenIdle()
      const result = resultsOf(rec.durable)[0]
      expect(result).toMatchObject({ isError: true, code: 'INVALID_RESULT' })
      expect(result?.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining(expected) })
      expect(rec.log.at(-1)).toBe('idle')
    },
  )

  it('R86: ctx.context() takes an image, and refuses one over maxBlockBytes with InvalidInputError', async () => {
    const thrown: unknown[] = []
    const { agent, model } = toolAgent((ctx) => {
      ctx.context({ content: [image], source: { kind: 'tool', tool: 'shot' } })
      try {
        ctx.context({ content: [sized(69)], source: { kind: 'tool', tool: 'shot' } })
      } catch (error) {
        thrown.push(error)
      }
      return 'ok'
    }, 68)
    agent.followup('go')
    await agent.whenIdle()
    expect(thrown).toHaveLength(1)
    expect(thrown[0]).toBeInstanceOf(InvalidInputError)
    expect(String(thrown[0])).toMatch(/ctx\.context\(\): input\.content\[0\]: this image is 69 bytes/)
    const second = model.requests[1]?.messages ?? []
    expect(second.at(-1)).toEqual({ role: 'user', content: [image] })
  })
})

describe('R86: base64 is checked and measured without decoding (no Buffer in the browser build)', () => {
  it('R86: agrees with Buffer on every length and padding', () => {
    for (let n = 0; n < 40; n++) {
      const encoded = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37) % 256)).toString('base64')
      expect(isBase64(encoded)).toBe(true)
      expect(base64Bytes(encoded)).toBe(n)
    }
    for (const bad of ['A', 'AB', 'ABC', 'A===', 'AB=C', '=ABC', 'AB-_', 'AB C', 'ABCDE=='])
      expect(isBase64(bad), bad).toBe(false)
  })
})
