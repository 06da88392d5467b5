/**
 * R86 on the wire: images and files sent through an agent reach a local Chat Completions server as
 * `image_url` and `file` parts; an image a tool returned becomes a line of text in the tool message.
 */
import { asapScheduler } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAgent, defineTool } from '../../src/index.js'
import { openaiModel } from '../../src/openai.js'
import {
  answer,
  chunk,
  closeServers,
  inTurn,
  serve,
  sse,
  type TestServer,
  usage,
} from '../support/openaiServer.js'

afterEach(closeServers)

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const PDF = 'JVBERi0xLjQKJcfsj6IK'

const messagesOf = (server: TestServer, index: number) =>
  (server.received[index]?.body as { messages: unknown[] } | undefined)?.messages ?? []

describe('R86: the OpenAI-compatible adapter sends images and files', () => {
  it('R86: a followup with an image and files reaches the server as content parts, in order', async () => {
    const server = await serve(answer('A cat.'))
    const agent = createAgent({
      model: openaiModel({ baseURL: server.baseURL, model: 'm' }),
      scheduler: asapScheduler,
    })
    agent.followup({
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
        { type: 'file', mediaType: 'application/pdf', data: PDF, filename: 'a.pdf' },
        { type: 'file', mediaType: 'application/pdf', url: `data:application/pdf;base64,${PDF}` },
        { type: 'file', mediaType: 'text/csv', url: 'https://example.com/t.csv', filename: 't.csv' },
      ],
      source: { kind: 'user' },
    })
    await agent.whenIdle()
    expect(messagesOf(server, 0)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'a.pdf' } },
          { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'file.pdf' } },
          { type: 'text', text: '[file t.csv (text/csv): https://example.com/t.csv]' },
        ],
      },
    ])
    // A text-only message still goes as one string.
    agent.followup('and now?')
    await agent.whenIdle()
    expect(messagesOf(server, 1).at(-1)).toEqual({ role: 'user', content: 'and now?' })
    await agent.dispose()
  })

  it('R86: an image a tool returned is a line of text in the tool message, without its bytes', async () => {
    const server = await serve(
      inTurn(
        sse(
          chunk({
            role: 'assistant',
            tool_calls: [
              { index: 0, id: 'c1', type: 'function', function: { name: 'shot', arguments: '{}' } },
            ],
          }),
          chunk({}, 'tool_calls'),
          usage(1, 1),
        ),
        answer('Seen.'),
      ),
    )
    const shot = defineTool({
      name: 'shot',
      description: 'a screenshot',
      parameters: z.object({}),
      execute: () => ({
        content: [
          { type: 'text', text: 'the page:' },
          { type: 'image', mediaType: 'image/png', data: PNG },
          { type: 'image', mediaType: 'image/png', url: 'https://example.com/p.png' },
        ],
      }),
    })
    const agent = createAgent({
      model: openaiModel({ baseURL: server.baseURL, model: 'm' }),
      scheduler: asapScheduler,
      tools: [shot],
    })
    agent.followup('look')
    await agent.whenIdle()
    expect(messagesOf(server, 1).at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: [
        'the page:',
        '[image (image/png) returned by the tool; not shown: a tool message takes text only]',
        '[image (image/png) returned by the tool: https://example.com/p.png; not shown: a tool message takes text only]',
      ].join('\n'),
    })
    await agent.dispose()
  })
})
