/**
 * A session with images and files in every place they can be (R86), for the store round trips: a
 * user message, a steer, a tool's result and its staged context.
 */
import { z } from 'zod'
import {
  type Agent,
  type ContentBlock,
  createAgent,
  defineTool,
  type SessionStore,
  type UserMessageData,
} from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

export const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
/** About 1 MiB of bytes, so that a row or a line is bigger than a page of text. */
const big = btoa(String.fromCharCode(...Array.from({ length: 3 * 1024 }, (_, i) => i % 256))).repeat(340)

export const blocks: readonly ContentBlock[] = [
  { type: 'text', text: 'look' },
  { type: 'image', mediaType: 'image/png', data: PNG },
  { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
  { type: 'file', mediaType: 'application/pdf', data: big, filename: 'big.pdf' },
  { type: 'file', mediaType: 'text/plain', url: 'data:text/plain,hello%20there' },
]
const user = (content: readonly ContentBlock[]): UserMessageData => ({ content, source: { kind: 'user' } })

const shot = defineTool({
  name: 'shot',
  description: 'a screenshot',
  parameters: z.object({}),
  execute: (_args, ctx) => {
    ctx.context({ content: [blocks[1] as ContentBlock], source: { kind: 'tool', tool: 'shot' } })
    return { content: blocks }
  },
})

/**
 * Runs a turn with every kind of media on `store`: the followup, a steer while the model is
 * asked, the tool's result and context; then disposes the agent.
 */
export const runMediaSession = async (store: SessionStore): Promise<Agent> => {
  let steered = false
  const agent: Agent = createAgent({
    store,
    tools: [shot],
    model: scriptedModel([
      () => {
        if (!steered) agent.steer(user(blocks.slice(1, 3)))
        steered = true
        return [
          { type: 'tool-call', id: 'c1', name: 'shot', arguments: '{}' },
          { type: 'finish', reason: 'tool-calls' },
        ]
      },
      'seen',
    ]),
  })
  agent.followup(user(blocks))
  await agent.whenIdle()
  await agent.dispose()
  return agent
}
