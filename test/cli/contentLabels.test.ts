/**
 * The terminal shows images and files (R86) as labels, never their bytes: the transcript lines of
 * a real session with media in every place it can be (a followup, a steer, a tool's result and
 * its context), and the line of a cancel that dropped such a message.
 */
import { describe, expect, it } from 'vitest'
import { droppedLine, formatDurable, PLAIN } from '../../src/cli/format.js'
import { inboxLines } from '../../src/cli/inboxList.js'
import { QueueEditor } from '../../src/cli/queueEditor.js'
import { createAgent, memoryStore } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { blocks, PNG, runMediaSession } from '../support/mediaSession.js'

const ALL = 'look [image image/png] [image image/jpeg] [file big.pdf] [file text/plain]'

describe('R86: image and file blocks in the terminal', () => {
  it('R86: user, steer, context and tool-result lines label each image and file, and print no base64 or URL', async () => {
    const agent = await runMediaSession(memoryStore())
    const lines = agent.session.events.flatMap((e) => formatDurable(e, PLAIN) ?? [])
    expect(lines).toContain(`you › ${ALL}`)
    expect(lines).toContain('you (steer) › [image image/png] [image image/jpeg]')
    expect(lines).toContain('[tool] [image image/png]')
    expect(lines).toContain(`  ↳ ${ALL}`)
    const printed = lines.join('\n')
    expect(printed).not.toContain(PNG.slice(0, 20))
    expect(printed).not.toContain('data:')
    expect(printed).not.toContain('example.com')
  })

  it('R86: a label stands a space apart from the text around it; adjacent text joins as it is', async () => {
    const agent = createAgent({ model: scriptedModel(['ok']) })
    agent.inject({
      content: [
        { type: 'text', text: 'see' },
        { type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', url: 'https://x.test/r.pdf' },
        { type: 'text', text: 'and ' },
        { type: 'image', mediaType: 'image/webp', data: PNG },
        { type: 'text', text: 'then' },
        { type: 'text', text: ' more' },
      ],
      source: { kind: 'plugin', plugin: 'cli' },
    })
    agent.followup('go')
    await agent.whenIdle()
    const lines = agent.session.events.flatMap((e) => formatDurable(e, PLAIN) ?? [])
    expect(lines).toContain('[inject] see [file report.pdf] and [image image/webp] then more')
    await agent.dispose()
  })

  it('R86: the waiting list and the line of a cancel that dropped a message label its media too', async () => {
    const agent = createAgent({ model: scriptedModel(['ok']) })
    // While idle a steer waits as the next prompt.
    agent.steer({ content: blocks.slice(0, 2), source: { kind: 'user' } })
    const items = inboxLines(agent.inbox, { columns: 200, limit: 8 })
    expect(items).toEqual(['  1 queued · look [image image/png]'])
    const message = agent.inbox.queue[0]?.message
    expect(message && droppedLine([message])).toBe('dropped 1 waiting: "look [image image/png]"')
    await agent.dispose()
  })
})

describe('R86: editing a queued item that carries media', () => {
  it('R86: Enter on an edit replaces the text and keeps the image and the source (the line holds text only)', async () => {
    const agent = createAgent({ model: scriptedModel(['ok']) })
    const source = { kind: 'plugin', plugin: 'cli' } as const
    agent.steer({ content: [...blocks.slice(0, 2), { type: 'text', text: ' more' }], source })
    const editor = new QueueEditor(agent)
    expect(editor.up('').buffer).toBe('look more')
    editor.save('look again')
    expect(agent.inbox.queue[0]?.message).toMatchObject({
      content: [{ type: 'text', text: 'look again' }, blocks[1]],
      source,
    })
    await agent.dispose()
  })
})
