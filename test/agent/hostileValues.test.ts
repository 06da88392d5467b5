/**
 * Whatever outside code throws (any value at all) becomes a tool error or a turn failure, and
 * the agent goes on (R21b, R23): no `events$` error, no agent stuck `running`, later sends run,
 * `dispose()` resolves, and the saved session reopens (every recorded failure text is a string).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  type Agent,
  type AgentHooks,
  type AgentOptions,
  createAgent,
  defineTool,
  fileStore,
  type SessionEvent,
} from '../../src/index.js'
import { type ScriptedReply, scriptedModel } from '../../src/testing.js'
import { hostileNames, hostileValues } from '../support/hostile.js'

const dir = mkdtempSync(join(tmpdir(), 'steerable-hostile-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Where = 'model' | 'tool' | 'step' | 'promptSubmit' | 'turnStopping' | 'requestError'

/** Throws `value` the first time only, so the second prompt shows the agent went on. */
const once = (value: unknown) => {
  let thrown = false
  return (): undefined => {
    if (thrown) return undefined
    thrown = true
    throw value
  }
}

const echo = defineTool({ name: 'echo', description: 'd', parameters: z.object({}), execute: () => 'ok' })

const optionsFor = (where: Where, value: unknown): Omit<AgentOptions, 'store'> => {
  const call = (name: string, args = '{}') => ({ toolCalls: [{ name, arguments: args }] })
  const script: ScriptedReply[] =
    where === 'model'
      ? [{ error: value }, 'second']
      : where === 'tool'
        ? [call('thrower'), 'after the tool', 'second']
        : where === 'requestError'
          ? [{ error: new Error('request failed') }, 'second']
          : ['first', 'second']
  const thrower = defineTool({
    name: 'thrower',
    description: 'd',
    parameters: z.object({}),
    execute: once(value),
  })
  const hooks: AgentHooks<Agent> = where === 'model' || where === 'tool' ? {} : { [where]: once(value) }
  return { model: scriptedModel(script), tools: [thrower, echo], hooks }
}

const runTwoPrompts = async (options: AgentOptions) => {
  const agent = createAgent(options)
  const streamErrors: unknown[] = []
  agent.events$.subscribe({ error: (e) => streamErrors.push(e) })
  agent.transcript$.subscribe({ error: (e) => streamErrors.push(e) })
  agent.followup('first')
  await agent.whenIdle()
  expect(agent.status).toBe('idle')
  agent.followup('second')
  await agent.whenIdle()
  expect(agent.status).toBe('idle')
  await agent.dispose()
  return { agent, streamErrors }
}

const turnEnds = (events: readonly SessionEvent[]) =>
  events.flatMap((e) => (e.type === 'turn/end' ? [e.data.reason] : []))

describe('R23, R21b: any thrown value ends a turn or becomes a tool error; the agent goes on', () => {
  for (const where of ['model', 'tool', 'step', 'promptSubmit', 'turnStopping', 'requestError'] as const) {
    it.each(hostileNames())(`R23: ${where} throws %s`, async (name) => {
      const path = join(dir, `${where}-${name.replace(/\W+/g, '-')}.jsonl`)
      const { agent, streamErrors } = await runTwoPrompts({
        ...optionsFor(where, hostileValues()[name]),
        store: fileStore(path),
      })
      expect(streamErrors).toEqual([])
      const ends = turnEnds(agent.session.events)
      // The second prompt ran to completion whatever the first one met.
      expect(ends.at(-1)).toEqual({ kind: 'completed' })
      for (const reason of ends) if (reason.kind === 'error') expect(typeof reason.message).toBe('string')
      // What was saved reopens: every failure text was recorded as JSON the store's reader accepts.
      const reopened = fileStore(path)
      expect(reopened.load()).toEqual(agent.session.events)
      reopened.close?.()
      expect(readFileSync(path, 'utf8').length).toBeLessThan(100_000)
    })
  }
})

describe('R21b: a tool schema that throws while checking arguments', () => {
  it('R21b: gives an INVALID_ARGUMENTS result and the turn goes on', async () => {
    const fetchTool = defineTool({
      name: 'fetch',
      description: 'd',
      parameters: z.object({ url: z.string() }).refine((v) => new URL(v.url)),
      execute: () => 'fetched',
    })
    const model = scriptedModel([{ toolCalls: [{ name: 'fetch', arguments: '{"url":"x"}' }] }, 'done'])
    const { agent, streamErrors } = await runTwoPrompts({ model, tools: [fetchTool] })
    expect(streamErrors).toEqual([])
    const results = agent.session.events.flatMap((e) => (e.type === 'tool/result' ? [e.data.result] : []))
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({ isError: true, code: 'INVALID_ARGUMENTS' })
    expect(JSON.stringify(results[0]?.content)).toContain('Invalid URL')
  })
})
