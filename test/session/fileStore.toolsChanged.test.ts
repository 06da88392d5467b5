/**
 * R100, R37: a session whose log holds `tools/changed` (a tool source's list changed between two
 * steps) opens again from its file, and the reopened agent goes on from where it was.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BehaviorSubject } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createAgent, defineTool, fileStore, type ToolDefinition } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-tools-changed-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const tool = (name: string): ToolDefinition =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    parameters: z.object({}),
    execute: () => `${name} ran`,
  })

describe('R100, R37: a log with tools/changed reopens', () => {
  it('R100: a session whose tool list changed between turns restores from its file store', async () => {
    const path = join(dir, 'session.jsonl')
    const source = new BehaviorSubject<readonly ToolDefinition[]>([tool('a')])
    const agent = createAgent({
      model: scriptedModel(['a1', 'a2']),
      store: fileStore(path),
      tools: [{ tools$: source }],
    })
    agent.followup('q1')
    await agent.whenIdle()
    source.next([tool('a'), tool('b')])
    agent.followup('q2')
    await agent.whenIdle()
    const changed = agent.session.events.filter((e) => e.type === 'tools/changed')
    expect(changed.map((e) => e.data)).toEqual([{ added: ['b'], removed: [] }])
    const written = agent.session.events
    await agent.dispose()

    const store = fileStore(path)
    expect(store.warnings).toEqual([])
    const model = scriptedModel(['a3'])
    const again = createAgent({ model, store, tools: [{ tools$: source }] })
    expect(again.session.events).toEqual(written)
    again.followup('q3')
    await again.whenIdle()
    expect(model.requests[0]?.turn).toBe(3)
    await again.dispose()
  })
})
