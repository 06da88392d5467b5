import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAgent, fileStore, type ModelEvent } from '../../src/index.js'
import { buildCli, readLog, runCli } from '../support/cliCommand.js'

/** `steerable fork` as a child process (R78), on sessions the library wrote. */
const root = mkdtempSync(join(tmpdir(), 'steerable-cli-fork-'))
let cli = ''
let source = ''
let sourceBytes: Buffer

beforeAll(async () => {
  cli = await buildCli(root)
  // Two turns, answered `re:<prompt>`.
  source = join(root, 'source.jsonl')
  const agent = createAgent({
    store: fileStore(source),
    model: (req): ModelEvent[] => {
      const said = req.messages.at(-1)?.content[0]
      return [
        { type: 'text', text: `re:${said?.type === 'text' ? said.text : '?'}` },
        { type: 'finish', reason: 'stop' },
      ]
    },
  })
  agent.followup('one')
  agent.followup('two')
  await agent.whenIdle()
  await agent.dispose()
  sourceBytes = readFileSync(source)
}, 60_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

let files = 0
const newPath = () => join(root, `fork${++files}.jsonl`)
const fork = (args: readonly string[]) => runCli(cli, '', ['fork', ...args])
const sourceUnchanged = () => expect(readFileSync(source).equals(sourceBytes)).toBe(true)

describe('R78: steerable fork', () => {
  it('R78: --turn N copies the log up to the end of turn N and the app continues it as a new session', () => {
    const to = newPath()
    const result = fork([source, to, '--turn', '1'])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain(`forked ${source} at the end of turn 1 into ${to}`)
    expect(result.stdout).toContain(`continue it: steerable --session ${to}`)
    const log = readLog(to)
    const sourceLog = readLog(source)
    const end = sourceLog.findIndex((e) => e.type === 'turn/end' && e.data.turn === 1)
    expect(log.slice(0, -1)).toEqual(sourceLog.slice(0, end + 1))
    expect(log.at(-1)).toEqual({ seq: end + 2, type: 'fork', data: { from: resolve(source), atTurn: 1 } })

    const resumed = runCli(cli, 'hello fork\n', ['--session', to])
    expect(resumed.status).toBe(0)
    expect(resumed.stdout).toMatch(/resumed .*: \d+ events, 1 turns/)
    const continued = readLog(to)
    expect(continued.filter((e) => e.type === 'turn/start').map((e) => e.data.turn)).toEqual([1, 2])
    expect(continued.map((e) => e.seq)).toEqual(continued.map((_, i) => i + 1))
    sourceUnchanged()
    expect(readFileSync(source, 'utf8')).not.toContain('hello fork')
  }, 60_000)

  it('R78: without --turn every event is copied; an empty TO file is fine', () => {
    const to = newPath()
    writeFileSync(to, '')
    const result = fork([source, to])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('at the end of turn 2')
    expect(readLog(to).slice(0, -1)).toEqual(readLog(source))
    sourceUnchanged()
  }, 60_000)

  it('R78: -h prints the usage; a missing TO is a usage error', () => {
    const help = fork(['--help'])
    expect(help.status).toBe(0)
    expect(help.stdout).toContain('Usage: steerable fork FROM.jsonl TO.jsonl [--turn N]')
    const missing = fork([source])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain('give the session to fork and the new file')
    expect(missing.stderr).toContain('Usage: steerable fork')
    expect(fork([source, source]).stderr).toContain('FROM and TO are the same file')
  }, 60_000)

  it.each([['0'], ['-1'], ['1.5'], ['two'], ['']])(
    'R78: --turn %j is a usage error and writes nothing',
    (turn) => {
      const to = newPath()
      const result = fork([source, to, `--turn=${turn}`])
      expect(result.status).toBe(2)
      expect(result.stderr).toContain('--turn: expected a turn number (a whole number from 1)')
      expect(existsSync(to)).toBe(false)
    },
    60_000,
  )

  it('R78: a --turn FROM does not have says which turns it has, and leaves no TO behind', () => {
    const to = newPath()
    const result = fork([source, to, '--turn', '7'])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(
      '--turn 7: the source has no turn 7 that ended; name one of its finished turns: 1, 2',
    )
    expect(existsSync(to)).toBe(false)
    expect(existsSync(`${to}.lock`)).toBe(false)
    sourceUnchanged()
  }, 60_000)

  it('R78: a missing FROM, and a TO that holds something, fail with what to do and change nothing', () => {
    const to = newPath()
    const missing = fork([join(root, 'nope.jsonl'), to])
    expect(missing.status).toBe(1)
    expect(missing.stderr).toContain('nope.jsonl does not exist: give the path of a saved session')
    expect(existsSync(join(root, 'nope.jsonl'))).toBe(false)
    expect(existsSync(to)).toBe(false)

    writeFileSync(to, 'keep me\n')
    const full = fork([source, to])
    expect(full.status).toBe(1)
    expect(full.stderr).toContain(
      `${to} already exists and is not empty: fork into a new file, or delete it first`,
    )
    expect(readFileSync(to, 'utf8')).toBe('keep me\n')
    sourceUnchanged()
  }, 60_000)
})
