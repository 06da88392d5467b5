/**
 * R65 through the public API: a session whose last turn is paused reopens paused. The calls the
 * pause does not hold run again, but only once `createAgent` has returned (as a restored wake,
 * R6): a cancel made right away aborts them before they run, which a process that reopens a
 * session only to cancel it (a PostgreSQL client with no owner, R58) relies on.
 */
import { filter, firstValueFrom, NEVER } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type Agent, createAgent, defineTool, memoryStore, type SessionEvent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { deferred, run } from '../support/agents.js'

/** `shell` needs approval; `fetch` does not, and finishes only when `fetched` is given. */
const tools = (log: string[], fetched?: () => void) => [
  defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters: z.object({ cmd: z.string() }),
    needsApproval: true,
    execute: ({ cmd }) => {
      log.push(`shell ${cmd}`)
      return 'ok'
    },
  }),
  defineTool({
    name: 'fetch',
    description: 'Fetches.',
    parameters: z.object({}),
    execute: () => {
      log.push('fetch')
      fetched?.()
      return fetched ? 'fetched' : NEVER
    },
  }),
]

const calls = [
  { id: 'c1', name: 'shell', arguments: '{"cmd":"ls"}' },
  { id: 'c2', name: 'fetch', arguments: '{}' },
]

/** A log that stopped with c1 waiting for approval and c2 (no approval needed) running. */
const pausedLog = async (): Promise<readonly SessionEvent[]> => {
  const { agent, durable } = run([{ toolCalls: calls }], { tools: tools([]) })
  agent.followup('go')
  await firstValueFrom(agent.approvals$.pipe(filter((list) => list.length > 0)))
  await agent.dispose()
  return durable
}

const reopen = (log: readonly SessionEvent[], ran: string[], script: string[], fetched?: () => void): Agent =>
  createAgent({ model: scriptedModel(script), store: memoryStore(log), tools: tools(ran, fetched) })

const results = (agent: Agent) =>
  agent.session.events.flatMap((e) =>
    e.type === 'tool/result' ? [[e.data.result.toolCallId, e.data.result.code]] : [],
  )

describe('R65: a session reopens paused', () => {
  it('R65: reopened paused with the same approvals; the unfinished call runs again once createAgent has returned', async () => {
    const log = await pausedLog()
    const ran: string[] = []
    const fetched = deferred()
    const agent = reopen(log, ran, ['done'], fetched.resolve)
    expect(agent.status).toBe('paused')
    expect(agent.approvals.map((a) => a.callId)).toEqual(['c1'])
    expect(ran).toEqual([])
    await fetched.promise
    expect(ran).toEqual(['fetch'])
    agent.approve('c1')
    await agent.whenIdle()
    expect(ran).toEqual(['fetch', 'shell ls'])
    expect(results(agent)).toEqual([
      ['c1', undefined],
      ['c2', undefined],
    ])
  })

  it('R65, R64: a cancel right after reopening aborts every call of the paused step; none runs', async () => {
    const log = await pausedLog()
    const ran: string[] = []
    const agent = reopen(log, ran, [], () => {})
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(ran).toEqual([])
    expect(results(agent)).toEqual([
      ['c1', 'ABORTED'],
      ['c2', 'ABORTED_BEFORE_DISPATCH'],
    ])
    expect(agent.session.events.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'aborted' } })
  })
})
