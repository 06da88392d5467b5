/**
 * R86 through `steerable/ai-sdk`: images and files of a user message and of a tool result reach
 * the real `@ai-sdk/anthropic` provider (interface version 3 on the devDependencies' ai 6 line, 4 on
 * `npm run test:ai-sdk-7`'s ai 7 line) and, from there, a local Messages server as image and
 * document blocks; a model of each version gets the prompt parts of its own version.
 */
import { createAnthropic } from '@ai-sdk/anthropic'
import { asapScheduler } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fromLanguageModel } from '../../src/aisdk.js'
import { type ContentBlock, createAgent, defineTool } from '../../src/index.js'
import { MockLanguageModelV3, MockLanguageModelV4 } from '../support/aisdkModels.js'
import { answer, finish, text } from '../support/aisdkParts.js'
import { collect } from '../support/aisdkRequests.js'
import { message, textBlock, toolUse } from '../support/anthropicServer.js'
import { closeServers, inTurn, serve, type TestServer } from '../support/openaiServer.js'

afterEach(closeServers)

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const PDF = 'JVBERi0xLjQKJcfsj6IK'

const media: ContentBlock[] = [
  { type: 'text', text: 'What is this?' },
  { type: 'image', mediaType: 'image/png', data: PNG },
  { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
  { type: 'file', mediaType: 'application/pdf', data: PDF, filename: 'a.pdf' },
]

const claude = (server: TestServer) =>
  fromLanguageModel(createAnthropic({ baseURL: server.baseURL, apiKey: 'sk-ant-local-test' })('claude-test'))
const messagesOf = (server: TestServer, index: number) =>
  (server.received[index]?.body as { messages: unknown[] } | undefined)?.messages ?? []

describe('R86: the AI SDK adapter sends images and files', () => {
  it('R86: a followup with images and a PDF reaches a Messages server as image and document blocks', async () => {
    const server = await serve(message('end_turn', textBlock('A cat.')))
    const agent = createAgent({ model: claude(server), scheduler: asapScheduler })
    agent.followup({ content: media, source: { kind: 'user' } })
    await agent.whenIdle()
    expect(messagesOf(server, 0)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: PDF },
            title: 'a.pdf',
          },
        ],
      },
    ])
    await agent.dispose()
  })

  it('R86: an image a tool returned goes back in the tool result', async () => {
    const server = await serve(
      inTurn(message('tool_use', toolUse('toolu_1', 'shot', '{}')), message('end_turn', textBlock('Seen.'))),
    )
    const shot = defineTool({
      name: 'shot',
      description: 'a screenshot',
      parameters: z.object({}),
      execute: () => ({
        content: [
          { type: 'text', text: 'the page:' },
          { type: 'image', mediaType: 'image/png', data: PNG },
        ],
      }),
    })
    const agent = createAgent({ model: claude(server), scheduler: asapScheduler, tools: [shot] })
    agent.followup('look')
    await agent.whenIdle()
    expect(messagesOf(server, 1).at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: 'the page:' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
      ],
    })
    await agent.dispose()
  })

  it('R86: a version 3 model gets file parts with the base64 or the URL as it is', async () => {
    const model = new MockLanguageModelV3({ doStream: answer(text('t', 'ok'), finish('stop')) as never })
    await collect(model, {
      messages: [
        { role: 'user', content: media },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'shot', arguments: '{}' }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c1', content: media }],
        },
      ],
    })
    const [user, , tool] = model.doStreamCalls[0]?.prompt ?? []
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'file', mediaType: 'image/png', data: PNG },
        { type: 'file', mediaType: 'image/jpeg', data: new URL('https://example.com/cat.jpg') },
        { type: 'file', mediaType: 'application/pdf', data: PDF, filename: 'a.pdf' },
      ],
    })
    expect(tool).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'shot',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'What is this?' },
              { type: 'image-data', data: PNG, mediaType: 'image/png' },
              { type: 'image-url', url: 'https://example.com/cat.jpg' },
              { type: 'file-data', data: PDF, mediaType: 'application/pdf', filename: 'a.pdf' },
            ],
          },
        },
      ],
    })
  })

  it('R86: a version 4 model gets tagged file data; a base64 data: URL goes as its data', async () => {
    const model = new MockLanguageModelV4({ doStream: answer(text('t', 'ok'), finish('stop')) as never })
    const blocks: ContentBlock[] = [
      { type: 'image', mediaType: 'image/png', url: `data:image/png;base64,${PNG}` },
      { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
    ]
    await collect(model, {
      messages: [
        { role: 'user', content: blocks },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'shot', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: blocks }] },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c2', name: 'shot', arguments: '{}' }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c2', content: blocks, isError: true }],
        },
      ],
    })
    const [user, , tool, , failed] = model.doStreamCalls[0]?.prompt ?? []
    const data = { type: 'data', data: PNG }
    const url = { type: 'url', url: new URL('https://example.com/cat.jpg') }
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'file', mediaType: 'image/png', data },
        { type: 'file', mediaType: 'image/jpeg', data: url },
      ],
    })
    expect(tool).toMatchObject({
      content: [
        {
          output: {
            type: 'content',
            value: [
              { type: 'file', mediaType: 'image/png', data },
              { type: 'file', mediaType: 'image/jpeg', data: url },
            ],
          },
        },
      ],
    })
    // An error result stays error text, its media marked without their bytes.
    expect(failed).toMatchObject({ content: [{ output: { type: 'error-text', value: '[image]\n[image]' } }] })
  })
})
