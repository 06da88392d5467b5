/**
 * R65 through the public API with a file store: a session disposed while paused reopens paused,
 * with the same pending approvals and its window; deciding in the new agent finishes
 * the turn, and a call never runs twice. (Crashes at random moments are in the crash suite.)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { filter, firstValueFrom } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type Agent, createAgent, defineTool, fileStore } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const sessionPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'steerable-approvals-'))
  dirs.push(dir)
  return join(dir, 'session.jsonl')
}

const tools = (ran: string[]) => [
  defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters: z.object({ cmd: z.string() }),
    needsApproval: true,
    execute: ({ cmd }) => {
      ran.push(cmd)
      return `ran ${cmd}`
    },
  }),
  defineTool({
    name: 'echo',
    description: 'Echoes.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => {
      ran.push(`echo ${text}`)
      return text
    },
  }),
]

const paused = (agent: Agent) => firstValueFrom(agent.approvals$.pipe(filter((list) => list.length > 0)))

const calls = [
  { id: 'c1', name: 'shell', arguments: '{"cmd":"ls"}' },
  { id: 'c2', name: 'echo', arguments: '{"text":"hi"}' },
  { id: 'c3', name: 'shell', arguments: '{"cmd":"pwd"}' },
]

describe('R65: a paused session reopens paused', () => {
  it('R65: same approvals, status paused, window open; a decision after the reopen finishes the turn once', async () => {
    const path = sessionPath()
    const ranBefore: string[] = []
    const first = createAgent({
      model: scriptedModel([{ toolCalls: calls }]),
      tools: tools(ranBefore),
      store: fileStore(path),
    })
    first.followup('go')
    const before = await paused(first)
    first.approve('c1')
    await first.session.flush()
    await first.dispose()
    expect(before.map((a) => a.callId)).toEqual(['c1', 'c3'])

    const ranAfter: string[] = []
    const second = createAgent({
      model: scriptedModel(['done']),
      tools: tools(ranAfter),
      store: fileStore(path),
    })
    expect(second.status).toBe('paused')
    expect(second.acceptsNextStep).toBe(true)
    expect(second.approvals.map((a) => [a.callId, a.requestedSeq])).toEqual([['c3', before[1]?.requestedSeq]])
    second.deny('c3', { reason: 'not now' })
    await second.whenIdle()
    // c1 (approved) and c2 (no approval needed) ran and were recorded before the dispose: not again.
    expect(ranBefore).toEqual(['echo hi', 'ls'])
    expect(ranAfter).toEqual([])
    const events = second.session.events
    const results = events.flatMap((e) => (e.type === 'tool/result' ? [e.data.result.toolCallId] : []))
    expect(results).toEqual(['c1', 'c2', 'c3'])
    expect(events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([
      { turn: 1, reason: { kind: 'completed' } },
    ])
    await second.dispose()
  })

  it('R64, R65: a session that was cancelled while paused does not reopen paused', async () => {
    const path = sessionPath()
    const first = createAgent({
      model: scriptedModel([{ toolCalls: [calls[0] as never] }]),
      tools: tools([]),
      store: fileStore(path),
    })
    first.followup('go')
    await paused(first)
    first.cancel({ kind: 'user' })
    await first.whenIdle()
    await first.dispose()
    const second = createAgent({ model: scriptedModel([]), tools: tools([]), store: fileStore(path) })
    expect(second.status).toBe('idle')
    expect(second.approvals).toEqual([])
    await second.dispose()
  })

  it('R80, R65: a session paused on its budget reopens paused with the usage of its log; raiseBudget continues', async () => {
    const path = sessionPath()
    const usage = { inputTokens: 30, outputTokens: 30 }
    const step = { toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text":"a"}' }], usage }
    const budget = { maxTotalTokens: 50, onExceed: 'pause' } as const
    const first = createAgent({
      model: scriptedModel([step]),
      tools: tools([]),
      store: fileStore(path),
      budget,
    })
    first.followup('go')
    await firstValueFrom(first.status$.pipe(filter((s) => s === 'paused')))
    await first.dispose()
    const second = createAgent({
      model: scriptedModel(['done']),
      tools: tools([]),
      store: fileStore(path),
      budget,
    })
    expect(second.status).toBe('paused')
    expect(() => second.raiseBudget({ maxTotalTokens: 60 })).toThrow(/more than the 60 tokens/)
    second.raiseBudget({ maxTotalTokens: 500 })
    await second.whenIdle()
    const ends = second.session.events.flatMap((e) => (e.type === 'turn/end' ? [e.data] : []))
    expect(ends).toEqual([{ turn: 1, reason: { kind: 'completed' } }])
    await second.dispose()
  })
})
