/**
 * The terminal app and history (R73, R74, R77): `/rollback [N]`, `/compact [N]`, the lines of the history events, and
 * the token totals of the status line. In-process with the demo model first, then the command
 * end to end, without a terminal and in one (test/support/cliCommand.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { first, firstValueFrom } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCommand, runCommand } from '../../src/cli/commands.js'
import { demoModel } from '../../src/cli/demoModel.js'
import { demoTools } from '../../src/cli/demoTools.js'
import { formatDurable, PLAIN } from '../../src/cli/format.js'
import { shortCount, usageText } from '../../src/cli/usageText.js'
import type { SessionEvent } from '../../src/contracts/events.js'
import { createAgent } from '../../src/index.js'
import { buildCli, driveCli, FAST, hasPty, readLog, runCli } from '../support/cliCommand.js'

const timings = { wordMs: 1, toolMs: 1 }
const demoAgent = () => createAgent({ model: demoModel(timings), tools: demoTools(timings) })
const userTexts = (events: readonly SessionEvent[]) =>
  events.flatMap((e) =>
    e.type === 'user/message' && e.data.content[0]?.type === 'text' ? [e.data.content[0].text] : [],
  )

describe('R77: /rollback', () => {
  it.each([
    ['/rollback', { kind: 'rollback', turns: 1 }],
    ['/rollback 2', { kind: 'rollback', turns: 2 }],
    ['/rollback 0', { kind: 'rollback', turns: 0 }],
    ['/rollback two', { kind: 'usage', text: expect.stringContaining('usage: /rollback [N]') }],
    ['/rollback 1 2', { kind: 'usage', text: expect.stringContaining('usage: /rollback [N]') }],
  ])('%j parses as %j', (line, command) => {
    expect(parseCommand(line)).toEqual(command)
  })

  it('R77: /rollback N undoes the last N turns of the demo conversation; while a turn runs, past the turns there are, or 0, it says why and changes nothing', async () => {
    const agent = demoAgent()
    agent.followup('one')
    agent.followup('two')
    await agent.whenIdle()
    const logged = () => agent.session.events.length

    const before = logged()
    expect(runCommand(agent, parseCommand('/rollback 3')).lines).toEqual([
      'rollback(): turns: only 2 turns can be undone',
    ])
    expect(runCommand(agent, parseCommand('/rollback 0')).lines[0]).toMatch(
      /^rollback\(\): turns: expected how many turns/,
    )
    expect(logged()).toBe(before)

    const started = firstValueFrom(
      agent.transcript$.pipe(first((e) => e.type === 'turn/start' && e.data.turn === 3)),
    )
    agent.followup('three')
    await started
    expect(runCommand(agent, parseCommand('/rollback')).lines).toEqual([
      'rollback(): the agent is busy; call it while idle (after whenIdle(), or cancel() first)',
    ])
    await agent.whenIdle()
    expect(agent.session.events.some((e) => e.type === 'rollback')).toBe(false)

    expect(runCommand(agent, parseCommand('/rollback 2')).lines).toEqual([])
    expect(agent.session.events.at(-1)).toMatchObject({ type: 'rollback', data: { toTurn: 1 } })
    const prompts = agent.session
      .messages()
      .flatMap((m) => (m.role === 'user' && m.content[0]?.type === 'text' ? [m.content[0].text] : []))
    expect(prompts).toEqual(['one'])
    expect(userTexts(agent.session.events)).toEqual(['one', 'two', 'three'])
    await agent.dispose()
  })

  it('/help lists /rollback and says what it does', () => {
    const help = runCommand(demoAgent(), { kind: 'help' }).lines
    expect(help[0]).toContain('/rollback [N]')
    expect(help.join('\n')).toContain(
      '/rollback N undoes the last N turns of the conversation (1 without N) while idle',
    )
  })
})

describe('R74: /compact', () => {
  it.each([
    ['/compact', { kind: 'compact' }],
    ['/compact 2', { kind: 'compact', keepLastTurns: 2 }],
    ['/compact 0', { kind: 'compact', keepLastTurns: 0 }],
    ['/compact all', { kind: 'usage', text: expect.stringContaining('usage: /compact [N]') }],
    ['/compact 1 2', { kind: 'usage', text: expect.stringContaining('usage: /compact [N]') }],
  ])('%j parses as %j', (line, command) => {
    expect(parseCommand(line)).toEqual(command)
  })

  it('R74: /compact N summarises all but the last N turns with the demo model; with nothing before them it says so and writes nothing', async () => {
    const agent = demoAgent()
    agent.followup('one')
    agent.followup('two')
    await agent.whenIdle()

    const nothing = runCommand(agent, parseCommand('/compact 2'))
    expect(nothing.lines).toEqual([])
    expect(await nothing.later).toBe(
      'nothing to compact: the conversation is no longer than the turns it keeps',
    )
    expect(agent.session.events.some((e) => e.type === 'compaction')).toBe(false)

    const done = runCommand(agent, parseCommand('/compact 1'))
    expect(await done.later).toBeUndefined()
    const compaction = agent.session.events.at(-1)
    expect(compaction?.type).toBe('compaction')
    const [summary, ...tail] = agent.session.messages()
    expect(summary?.role).toBe('user')
    expect(tail.flatMap((m) => (m.role === 'user' ? m.content : []))).toEqual([{ type: 'text', text: 'two' }])
    expect(userTexts(agent.session.events)).toEqual(['one', 'two'])
    await agent.dispose()
  })

  it('R74: a /compact the agent refuses (disposed) or a summariser that throws leaves a line and the conversation as it was', async () => {
    const failing = createAgent({
      model: demoModel(timings),
      compaction: {
        summarize: () => {
          throw new Error('summary service down')
        },
      },
    })
    failing.followup('one')
    failing.followup('two')
    await failing.whenIdle()
    const before = failing.session.messages()
    const failed = runCommand(failing, parseCommand('/compact 1'))
    expect(await failed.later).toMatch(
      /^the compaction failed, the conversation is as it was: .*summary service down/,
    )
    expect(failing.session.messages()).toEqual(before)
    await failing.dispose()
    const refused = runCommand(failing, parseCommand('/compact'))
    expect(refused.lines.length + (refused.later ? 1 : 0)).toBe(1)
    expect([...refused.lines, await refused.later].join('')).toMatch(/disposed/)
  })

  it('/help lists /compact and says what it does', () => {
    const help = runCommand(demoAgent(), { kind: 'help' }).lines
    expect(help[0]).toContain('/compact [N]')
    expect(help.join('\n')).toContain('/compact N replaces the conversation before the last N turns')
  })
})

describe('R73, R77: the lines of the history events and the token totals', () => {
  it('a rollback, a compaction and a fork are each one line that says what it did', () => {
    const line = (type: 'rollback' | 'compaction' | 'fork', data: object) =>
      formatDurable({ seq: 9, type, data } as SessionEvent, PLAIN)
    expect(line('rollback', { toTurn: 2 })).toBe('(rolled back to the end of turn 2)')
    expect(line('rollback', { toTurn: 0 })).toBe('(rolled back to before the first turn)')
    expect(line('fork', { from: 'S1', atTurn: 3 })).toBe('(forked from session S1 at the end of turn 3)')
    const summary = [{ type: 'text', text: 'We spoke of Paris.' }]
    expect(line('compaction', { upToSeq: 8, keptFromSeq: 5, summary })).toBe(
      '(compacted: the messages before event 5 are now a summary) We spoke of Paris.',
    )
    const long = line('compaction', {
      upToSeq: 8,
      keptFromSeq: 5,
      summary: [{ type: 'text', text: 'x'.repeat(1000) }],
    })
    expect(long!.length).toBeLessThan(400)
    expect(long!.endsWith('x…')).toBe(true)
  })

  it('R73: the totals read short, marked ~ when some request was estimated, and empty before the first request', () => {
    expect([950, 1000, 1234, 12_345, 999_999, 3_400_000].map(shortCount)).toEqual([
      '950',
      '1k',
      '1.2k',
      '12k',
      '1000k',
      '3.4M',
    ])
    const usage = {
      inputTokens: 1234,
      outputTokens: 56,
      cachedInputTokens: 0,
      requests: 2,
      estimatedRequests: 0,
    }
    expect(usageText(usage)).toBe('tokens 1.2k in / 56 out')
    expect(usageText({ ...usage, estimatedRequests: 1 })).toBe('tokens ~1.2k in / ~56 out')
    expect(usageText({ ...usage, requests: 0, inputTokens: 0, outputTokens: 0 })).toBe('')
  })
})

describe('the steerable command and history', () => {
  const root = mkdtempSync(join(tmpdir(), 'steerable-cli-history-'))
  let cli = ''
  beforeAll(async () => {
    cli = await buildCli(root)
  }, 60_000)
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('R77: without a terminal, /rollback N waits for the running turn, undoes it and says so; past the turns there are it says why', () => {
    const file = join(root, 'rollback.jsonl')
    const result = runCli(
      cli,
      'first question\n/queue second question\n/rollback 1\n/rollback 5\n',
      ['--session', file],
      FAST,
    )
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('(rolled back to the end of turn 1)')
    expect(result.stdout).toContain('rollback(): turns: only 1 turn can be undone')
    const log = readLog(file)
    expect(log.filter((e) => e.type === 'rollback').map((e) => e.data)).toEqual([{ toTurn: 1 }])
    expect(log.filter((e) => e.type === 'turn/end')).toHaveLength(2)
  }, 60_000)

  it('R74: without a terminal, /compact N summarises the conversation before the last N turns and prints the compaction', () => {
    const file = join(root, 'compact.jsonl')
    const result = runCli(
      cli,
      'first question\n/queue second question\n/compact 1\n/compact 5\n',
      ['--session', file],
      FAST,
    )
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/\(compacted: the messages before event \d+ are now a summary\)/)
    expect(result.stdout).toContain(
      'nothing to compact: the conversation is no longer than the turns it keeps',
    )
    const log = readLog(file)
    expect(log.filter((e) => e.type === 'compaction')).toHaveLength(1)
    expect(log.filter((e) => e.type === 'turn/end')).toHaveLength(2)
  }, 60_000)

  it.runIf(hasPty)(
    'R73, R77: in a terminal the status line shows the tokens (~: the demo model sends no usage); /rollback undoes the turn',
    () => {
      const file = join(root, 'tty.jsonl')
      const { status, output, error } = driveCli(
        cli,
        [
          { wait: 'steerable —' },
          { send: 'first\r' },
          { wait: 'tokens ~' },
          { wait: 'Anything else?' },
          { wait: 'idle' },
          { send: '/rollback\r' },
          { wait: '(rolled back to before the first turn)' },
          { send: '/rollback\r' },
          { wait: 'there is no turn to undo' },
          { send: '\x04' },
          { wait: 'bye' },
        ],
        ['--session', file],
        { STEERABLE_DEMO_WORD_MS: '10', STEERABLE_DEMO_TOOL_MS: '20' },
      )
      expect(error).toBe('')
      expect(status).toBe(0)
      expect(output).toMatch(/idle · queued 0 · staged 0 · tokens ~\d+(\.\d)?k? in \/ ~\d+ out/)
      expect(
        readLog(file)
          .filter((e) => e.type === 'rollback')
          .map((e) => e.data),
      ).toEqual([{ toTurn: 0 }])
    },
    90_000,
  )

  it.runIf(hasPty)(
    'R74: in a terminal /compact 0 summarises the whole conversation and prints it; /compact 5 then says there is nothing to compact',
    () => {
      const file = join(root, 'tty-compact.jsonl')
      const { status, error } = driveCli(
        cli,
        [
          { wait: 'steerable —' },
          { send: 'first\r' },
          { wait: 'Anything else?' },
          { wait: 'idle' },
          { send: '/compact 0\r' },
          { wait: '(compacted: the messages before event' },
          { send: '/compact 5\r' },
          { wait: 'nothing to compact' },
          { send: '\x04' },
          { wait: 'bye' },
        ],
        ['--session', file],
        { STEERABLE_DEMO_WORD_MS: '10', STEERABLE_DEMO_TOOL_MS: '20' },
      )
      expect(error).toBe('')
      expect(status).toBe(0)
      expect(readLog(file).filter((e) => e.type === 'compaction')).toHaveLength(1)
    },
    90_000,
  )
})
