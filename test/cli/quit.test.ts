/**
 * `/quit` leaves at once (src/cli/quitNow.ts): while a turn runs and the input stays open, in the
 * terminal and without one. The running turn ends; what waits is kept in a stored session (it
 * runs on the next start) and dropped, with a line that says so, without one.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startChild } from '../support/childProcesses.js'
import { buildCli, driveCli, FAST, hasPty, runCli } from '../support/cliCommand.js'

/** The demo model slow enough that its turn is still running when /quit arrives. */
const SLOW = { STEERABLE_DEMO_WORD_MS: '300', STEERABLE_DEMO_TOOL_MS: '60000' }

let dir: string
let cli: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-quit-'))
  cli = await buildCli(dir)
}, 60_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * The command without a terminal, its stdin a pipe that stays open: `hello` starts a turn, and
 * once it runs, `second` is queued and `/quit` sent. Resolves with the exit code and output.
 */
const quitMidTurn = async (args: readonly string[]): Promise<{ code: number | null; output: string }> => {
  const child = startChild(process.execPath, [cli, ...args], {
    deadlineMs: 60_000,
    env: { ...process.env, ...SLOW, OPENAI_BASE_URL: '', OPENAI_API_KEY: '' },
  })
  child.write('hello\n')
  await child.waitFor('✓ ran as turn 1', () =>
    [...child.lines, ...child.stderrLines].some((line) => line.includes('✓ ran as turn 1')),
  )
  child.write('/queue second\n/quit\n')
  // It must exit within 30 s of /quit.
  const { code, output } = await child.exitWithin(30_000)
  return { code, output }
}

describe('/quit leaves at once', () => {
  it('without a terminal: /quit while a turn runs and stdin stays open exits 0 at once, ending the turn and saying what it dropped', async () => {
    const { code, output } = await quitMidTurn([])
    expect(code).toBe(0)
    expect(output).toContain('(turn 1 disposed)')
    expect(output).toContain('quit: 1 waiting item dropped (--session FILE keeps them)')
  }, 60_000)

  it('without a terminal, with --session: what waited at /quit is kept, and runs when the session is resumed', async () => {
    const session = join(dir, 'lines.jsonl')
    const { code, output } = await quitMidTurn(['--session', session])
    expect(code).toBe(0)
    expect(output).toContain('quit: 1 waiting item kept in the session (it runs when you resume it)')
    const resumed = runCli(cli, '', ['--session', session], FAST)
    expect(resumed.status).toBe(0)
    expect(resumed.stdout).toContain('you › second')
    expect(resumed.stdout).toContain('Let me check my notes on "second"')
  }, 60_000)

  it.skipIf(!hasPty)(
    'in a terminal: /quit while a turn runs exits 0 at once, and a queued item is kept in the session',
    () => {
      const session = join(dir, 'tty.jsonl')
      const { status, output, error } = driveCli(
        cli,
        [
          { wait: 'steerable —' },
          { send: 'hello\r' },
          { wait: 'running · turn 1' },
          { send: 'second\t' },
          { wait: 'queued 1' },
          { send: '/quit\r' },
          { exited: 30 },
        ],
        ['--session', session],
        SLOW,
      )
      expect(error).toBe('')
      expect(status).toBe(0)
      expect(output).toContain('quit: 1 waiting item kept in the session (it runs when you resume it)')
      const resumed = runCli(cli, '', ['--session', session], FAST)
      expect(resumed.stdout).toContain('you › second')
    },
    120_000,
  )
})
