/**
 * What the PostgreSQL approval tests share (R65): a tool that needs approval and records what it
 * ran, a scripted call of it, an owner in the test's own process that applies remote requests,
 * and the session's journal as rows.
 */
import type pg from 'pg'
import { z } from 'zod'
import { type AgentOptions, defineTool, type ToolDefinition } from '../../src/index.js'
import { applyRemoteRequests, openPostgresSession } from '../../src/postgres.js'
import { extensionsOf } from '../../src/runtime/extensions.js'
import type { ScriptedReply } from '../../src/testing.js'
import { setup } from './agents.js'

/** `shell`, which needs approval; `ran` lists the commands it ran, in order. */
export const shellTool = () => {
  const ran: string[] = []
  const tool = defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters: z.object({ cmd: z.string() }),
    needsApproval: true,
    execute: ({ cmd }) => {
      ran.push(cmd)
      return `ran ${cmd}`
    },
  })
  return { tool, ran }
}

/** A model's call of `shell`. */
export const callShell = (id: string, cmd: string) => ({
  id,
  name: 'shell',
  arguments: JSON.stringify({ cmd }),
})

/**
 * Takes the lease of `sessionId` and drives it with a scripted model, `shell` and `more` tools, applying remote
 * requests; what `applyRemoteRequests` reports failed is in `failures`. `release` lets the session
 * go without discarding anything (what a worker does, R57): a paused turn stays paused (R64).
 */
export const approvalOwner = async (
  pool: pg.Pool,
  sessionId: string,
  script: readonly ScriptedReply[],
  more: readonly ToolDefinition[] = [],
  options: Omit<AgentOptions, 'model' | 'store' | 'tools'> = {},
) => {
  const store = await openPostgresSession(pool, sessionId, { pollMs: 100 })
  await store.takeLease()
  const { tool, ran } = shellTool()
  const { agent, model } = setup(script, { ...options, store, tools: [tool, ...more] })
  const failures: unknown[] = []
  const feed = applyRemoteRequests(agent, store, { failed: (error) => failures.push(error) })
  return {
    store,
    agent,
    model,
    ran,
    failures,
    release: async () => {
      feed.unsubscribe()
      await extensionsOf(agent).release()
      await store.release()
    },
  }
}

/** The inbox journal of `sessionId`, in order. */
export const journal = async (pool: pg.Pool, sessionId: string) =>
  (
    await pool.query<{ seq: string; op: string; record: Record<string, unknown>; pending: boolean }>(
      'SELECT seq, op, record, pending FROM steerable_inbox WHERE session_id = $1 ORDER BY seq',
      [sessionId],
    )
  ).rows
