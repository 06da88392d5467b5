import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createAgent, fileStore } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { runMediaSession } from '../support/mediaSession.js'

const dir = mkdtempSync(join(tmpdir(), 'steerable-media-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('R86: the file store keeps images and files', () => {
  it('R86: a reopened session holds every image and file block exactly, and sends them to the model again', async () => {
    const path = join(dir, 'media.jsonl')
    const first = await runMediaSession(fileStore(path))
    const messages = first.session.messages()
    // The followup, the tool's result, then its context and the steer, which enter after the batch.
    expect(messages.filter((m) => JSON.stringify(m).includes('"type":"image"')).map((m) => m.role)).toEqual([
      'user',
      'tool',
      'user',
      'user',
    ])

    const model = scriptedModel(['again'])
    const second = createAgent({ model, store: fileStore(path) })
    expect(second.session.events).toEqual(first.session.events)
    expect(second.session.messages()).toEqual(messages)
    // The model gets the media back from the file.
    second.followup('go on')
    await second.whenIdle()
    expect(model.requests[0]?.messages.slice(0, messages.length)).toEqual(messages)
    expect(model.requests[0]?.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'go on' }])
    await second.dispose()
  })
})
