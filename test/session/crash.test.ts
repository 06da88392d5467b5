/**
 * R35, R36, R37, V6 crash test: a child process (test/support/children/crashChild.ts) runs an agent on a
 * `fileStore` and is killed with SIGKILL at random moments, some right after it reported a
 * checkpoint (so the kill lands in the next turn's writes). After every kill the log must open
 * (cutting off at most a torn last line), every turn the child reported checkpointed must be
 * intact and balanced, and a resumed agent must continue the turn numbering and the
 * conversation. Several files are killed and resumed repeatedly.
 *
 * Deterministic except for timing: kill plans come from a seeded PRNG.
 *
 * The child (test/support/children/crashChild.ts, runnable as
 * `node --import tsx test/support/children/crashChild.ts <log>`) is
 * bundled once with esbuild (the bundler under tsup and tsx) and run with plain `node`: starting
 * it through tsx costs ~4x more per spawn, which 24 spawns cannot afford.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAgent, fileStore, projectMessages, type SessionEvent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { bundleChild, type ChildProgram } from '../support/bundleChild.js'
import { mulberry32 } from '../support/mulberry32.js'

type KillPlan =
  | { readonly kind: 'delay'; readonly ms: number }
  /** Kill the moment the `count`-th `checkpoint` line arrives: the child is in its next turn. */
  | { readonly kind: 'after-checkpoint'; readonly count: number }
  /** Kill the moment the `count`-th `flushing` line arrives: the child is about to write. */
  | { readonly kind: 'during-write'; readonly count: number }
  /** The child kills itself (SIGKILL) inside a multi-megabyte write after `count` flushes. */
  | { readonly kind: 'torn-write'; readonly count: number }

type RunResult = {
  readonly startTurn: number
  readonly checkpointed: readonly number[]
  readonly errors: readonly string[]
  readonly signal: NodeJS.Signals | null
  readonly stderr: string
  /** The plan never fired: the child was killed at its deadline (wedged: alone it takes ~1 s). */
  readonly timedOut: boolean
}

/** Spawns the child on `logPath`, kills it per `plan` (timed from its `ready` line). */
const runChild = async (logPath: string, seed: number, plan: KillPlan): Promise<RunResult> => {
  const child = program.start({
    args: [logPath, String(seed), String(plan.kind === 'torn-write' ? plan.count : 0)],
    stdin: 'ignore',
    // A wedged child must not hang the test; a child on a loaded machine may take many seconds
    // to reach its third checkpoint or fourth flush, so the deadline is far past that.
    deadlineMs: 90_000,
  })
  let startTurn = -1
  const checkpointed: number[] = []
  const errors: string[] = []
  let flushes = 0
  const kill = () => void child.kill()
  child.onLine((line, stream) => {
    if (stream !== 'stdout') return
    const [word, rest] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)]
    if (word === 'ready') {
      startTurn = Number(rest)
      if (plan.kind === 'delay') setTimeout(kill, plan.ms)
    } else if (word === 'checkpoint') {
      checkpointed.push(Number(rest))
      if (plan.kind === 'after-checkpoint' && checkpointed.length >= plan.count) kill()
    } else if (line === 'flushing') {
      flushes++
      if (plan.kind === 'during-write' && flushes >= plan.count) kill()
    } else if (word === 'error') errors.push(rest)
  })
  const { signal, stderr, timedOut } = await child.exit
  return { startTurn, checkpointed, errors, signal, stderr, timedOut }
}

/**
 * The log is well formed: `seq` 1, 2, 3 … contiguous; turns never nest; every step/start has its
 * step/end inside the same turn; turn numbers increase. Only the very last turn may be open (a
 * crash before its checkpoint). Returns the closed turns and the open one.
 */
const checkBalanced = (events: readonly SessionEvent[]) => {
  const closed = new Map<number, SessionEvent[]>()
  let open: { turn: number; events: SessionEvent[] } | undefined
  let openStep: number | undefined
  let lastTurn = 0
  events.forEach((event, i) => {
    expect(event.seq, `seq at index ${i}`).toBe(i + 1)
    switch (event.type) {
      case 'turn/start':
        expect(open, `turn/start(${event.data.turn}) inside turn ${open?.turn}`).toBeUndefined()
        expect(event.data.turn).toBeGreaterThan(lastTurn)
        lastTurn = event.data.turn
        open = { turn: event.data.turn, events: [event] }
        return
      case 'turn/end':
        expect(open?.turn, `turn/end(${event.data.turn}) without its turn/start`).toBe(event.data.turn)
        expect(openStep, `turn/end(${event.data.turn}) with step ${openStep} open`).toBeUndefined()
        open!.events.push(event)
        closed.set(event.data.turn, open!.events)
        open = undefined
        return
      case 'step/start':
        expect(open?.turn).toBe(event.data.turn)
        expect(openStep).toBeUndefined()
        openStep = event.data.step
        break
      case 'step/end':
        expect(open?.turn).toBe(event.data.turn)
        expect(openStep).toBe(event.data.step)
        openStep = undefined
        break
      default:
        if ('turn' in event.data) expect(open?.turn).toBe(event.data.turn)
    }
    open?.events.push(event)
  })
  return { closed, open, lastTurn }
}

/**
 * A turn as one line of letters: t turn/start, u user, s step/start, a assistant, c/r tool call/result, e
 * step/end, n turn/end.
 */
const LETTERS: Partial<Record<SessionEvent['type'], string>> = {
  'turn/start': 't',
  'user/message': 'u',
  'step/start': 's',
  'assistant/message': 'a',
  'tool/call': 'c',
  'tool/result': 'r',
  'step/end': 'e',
  'turn/end': 'n',
}
const shapeOf = (events: readonly SessionEvent[]): string =>
  events.map((e) => LETTERS[e.type] ?? '?').join('')
/**
 * A checkpointed turn of the child: a prompt, then a step with a tool batch and one more step, or one step.
 */
const CLOSED_TURN = /^tus(a(cr)+es)?aen$/

/** Tool call ids of assistant messages that no `tool/result` answers. */
const unansweredCalls = (events: readonly SessionEvent[]): string[] => {
  const open = new Set<string>()
  for (const e of events) {
    if (e.type === 'assistant/message')
      for (const block of e.data.content) if (block.type === 'tool-call') open.add(block.id)
    if (e.type === 'tool/result') open.delete(e.data.result.toolCallId)
  }
  return [...open]
}

const root = mkdtempSync(join(tmpdir(), 'steerable-crash-'))
let program: ChildProgram
beforeAll(async () => {
  program = await bundleChild('crashChild', { deadlineMs: 90_000 })
}, 120_000)
afterAll(() => {
  program.remove()
  rmSync(root, { recursive: true, force: true })
})

describe('crash safety (R35, R36, R37, V6)', () => {
  it('R36, R37, V6: SIGKILL at random moments never loses a checkpointed turn; resume continues', async () => {
    const FILES = 4
    const KILLS_PER_FILE = 6
    const stats = { kills: 0, afterCheckpoint: 0, duringWrite: 0, selfKilled: 0, torn: 0, interrupted: 0 }
    // The files are independent: their kill/resume sequences run side by side.
    await Promise.all(
      Array.from({ length: FILES }, (_, f) =>
        killAndResume(f, KILLS_PER_FILE, mulberry32(0x5eed + f), stats),
      ),
    )
    expect(stats.kills).toBeGreaterThanOrEqual(20)
    // Informative only (timing-dependent): how often the kills landed in a write.
    console.info(
      `crash test: ${stats.kills} kills (${stats.afterCheckpoint} right after a checkpoint, ${stats.duringWrite} at a ` +
        `flush, ${stats.selfKilled} inside a big write), ` +
        `${stats.torn} torn lines cut off, ${stats.interrupted} interrupted turns closed on resume`,
    )
  }, 900_000)
})

type Stats = {
  kills: number
  afterCheckpoint: number
  duringWrite: number
  selfKilled: number
  torn: number
  interrupted: number
}

/** Kills a child on one file `kills` times; after each kill checks the log and resumes it once. */
const killAndResume = async (f: number, kills: number, random: () => number, stats: Stats): Promise<void> => {
  const logPath = join(root, `session-${f}.jsonl`)
  let expectedStart = 0
  const everCheckpointed = new Set<number>()
  for (let k = 0; k < kills; k++) {
    const r = random()
    const plan: KillPlan =
      r < 0.25
        ? { kind: 'delay', ms: 5 + Math.floor(random() * 146) }
        : r < 0.5
          ? { kind: 'after-checkpoint', count: 1 + Math.floor(random() * 3) }
          : r < 0.75
            ? { kind: 'during-write', count: 1 + Math.floor(random() * 4) }
            : { kind: 'torn-write', count: 1 + Math.floor(random() * 4) }
    const run = await runChild(logPath, 1 + Math.floor(random() * 1e9), plan)
    const where = `file ${f}, kill ${k} (${JSON.stringify(plan)})`

    expect(run.signal, `${where}: the child died on its own:\n${run.stderr}`).toBe('SIGKILL')
    expect(run.timedOut, `${where}: the kill plan never fired (child wedged?)`).toBe(false)
    expect(run.errors, `${where}: agent/error in the child`).toEqual([])
    expect(run.startTurn, `${where}: the child resumed at the wrong turn`).toBe(expectedStart)
    stats.kills++
    if (plan.kind === 'after-checkpoint') stats.afterCheckpoint++
    if (plan.kind === 'during-write') stats.duringWrite++
    if (plan.kind === 'torn-write') stats.selfKilled++
    for (const turn of run.checkpointed) {
      expect(turn, `${where}: checkpoint numbering`).toBeGreaterThan(expectedStart)
      everCheckpointed.add(turn)
    }

    // The log opens: at most a torn last line is cut off (R37); the stale lock of the killed
    // child is taken over.
    expect(existsSync(`${logPath}.lock`)).toBe(true)
    const store = fileStore(logPath)
    expect(store.warnings.length, `${where}: ${store.warnings.join('; ')}`).toBeLessThanOrEqual(1)
    stats.torn += store.warnings.length
    // The repair is on disk: the file is exactly the valid lines now.
    const loaded = store.load()
    expect(
      readFileSync(logPath, 'utf8')
        .split('\n')
        .filter((l) => l !== '').length,
    ).toBe(loaded.length)

    // Every turn ever reported checkpointed (this run and earlier ones) is intact and complete.
    const { closed, open, lastTurn } = checkBalanced(loaded)
    for (const turn of everCheckpointed) {
      const events = closed.get(turn)
      expect(events, `${where}: checkpointed turn ${turn} is missing or open`).toBeDefined()
      expect(shapeOf(events!), `${where}: turn ${turn}`).toMatch(CLOSED_TURN)
      expect(events!.at(-1)?.data, `${where}: turn ${turn}`).toMatchObject({ reason: { kind: 'completed' } })
    }
    if (open) expect(everCheckpointed.has(open.turn), `${where}: turn ${open.turn} lost its end`).toBe(false)

    // A resumed agent closes an interrupted turn as aborted and continues the turn numbers and
    // the conversation.
    const before = projectMessages(loaded)
    const model = scriptedModel([`resumed answer ${f}.${k}`])
    const agent = createAgent({ model, store })
    if (open) {
      stats.interrupted++
      expect(agent.session.events.at(-1)).toMatchObject({
        type: 'turn/end',
        data: { turn: open.turn, reason: { kind: 'aborted' } },
      })
    } else expect(agent.session.events.length).toBe(loaded.length)
    // Closing the interrupted turn may answer its open calls (R51): the projection grows by them.
    const resumed = agent.session.messages()
    expect(resumed.slice(0, before.length)).toEqual(before)
    agent.followup(`resume question ${f}.${k}`)
    await agent.whenIdle()
    expect(model.requests).toHaveLength(1)
    expect(model.requests[0]!.turn).toBe(lastTurn + 1)
    expect(model.requests[0]!.messages.slice(0, resumed.length)).toEqual(resumed)
    const messages = agent.session.messages()
    expect(messages.slice(0, resumed.length)).toEqual(resumed)
    expect(messages.slice(resumed.length)).toEqual([
      { role: 'user', content: [{ type: 'text', text: `resume question ${f}.${k}` }] },
      { role: 'assistant', content: [{ type: 'text', text: `resumed answer ${f}.${k}` }] },
    ])
    const all = agent.session.events
    checkBalanced(all)
    // R51: every tool call in the reopened log is answered, so no later request is refused.
    expect(unansweredCalls(all), `${where}: unanswered tool calls`).toEqual([])
    await agent.dispose()
    expect(existsSync(`${logPath}.lock`)).toBe(false)
    // The disposed agent's log reads back as exactly its transcript.
    const reread = readFileSync(logPath, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as SessionEvent)
    expect(reread).toEqual(all)
    everCheckpointed.add(lastTurn + 1)
    expectedStart = lastTurn + 1
  }
}
