/**
 * R67 in the terminal app, end to end through the `steerable` command on the demo model, whose
 * `delete_file` tool needs approval: the pending call is shown with its arguments, and `y`, `n`
 * or `n <reason>` answers it, piped or typed in a real pseudo-terminal.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCli, driveCli, hasPty, type Logged, readLog, runCli } from '../support/cliCommand.js'

const root = mkdtempSync(join(tmpdir(), 'steerable-cli-approvals-'))
let cli = ''

beforeAll(async () => {
  cli = await buildCli(root)
}, 60_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

const ofType = (log: readonly Logged[], type: string) => log.filter((e) => e.type === type).map((e) => e.data)
const decisions = (log: readonly Logged[]) =>
  ofType(log, 'approval/decision').map(({ decision, reason }) => ({ decision, reason }))
const results = (log: readonly Logged[]) =>
  ofType(log, 'tool/result').map((data) => (data.result as { code?: string }).code ?? 'ok')

describe('R67: approvals without a terminal', () => {
  it('the pending call is shown with its name and arguments; y approves it and it runs (a y read while the turn runs waits for the question)', () => {
    const file = join(root, 'piped-yes.jsonl')
    const result = runCli(cli, 'delete notes.txt\ny\n', ['--session', file])
    expect(result.status).toBe(0)
    const out = result.stdout
    expect(out).toContain('⏸ delete_file({"path":"notes.txt"}) waits for approval (call delete_file-1-1)')
    expect(out).toContain('approve delete_file({"path":"notes.txt"})? y approves · n or n <reason> denies')
    expect(out).toContain('✓ approved call delete_file-1-1')
    expect(out).toContain('assistant › Done: "notes.txt" is deleted (a pretend delete')
    const log = readLog(file)
    expect(decisions(log)).toEqual([{ decision: 'approved', reason: undefined }])
    expect(results(log)).toEqual(['ok'])
    // The y answered: it was not steered into the turn as text.
    expect(ofType(log, 'steering/message')).toEqual([])
  }, 60_000)

  it('n denies the call, n <reason> denies it with the reason the model is told; neither runs it', () => {
    const bare = join(root, 'piped-no.jsonl')
    expect(runCli(cli, 'delete a.txt\nn\n', ['--session', bare]).status).toBe(0)
    expect(decisions(readLog(bare))).toEqual([{ decision: 'denied', reason: undefined }])
    expect(results(readLog(bare))).toEqual(['DENIED'])
    const reasoned = join(root, 'piped-no-reason.jsonl')
    const result = runCli(cli, 'delete b.txt\nn keep it, it is mine\n', ['--session', reasoned])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('✗ denied call delete_file-1-1: keep it, it is mine')
    expect(result.stdout).toContain(
      'I left it alone. Denied: the user did not approve this call. Reason: keep it, it is mine',
    )
    expect(decisions(readLog(reasoned))).toEqual([{ decision: 'denied', reason: 'keep it, it is mine' }])
    expect(results(readLog(reasoned))).toEqual(['DENIED'])
  }, 60_000)

  it('R64, R65: input that ends on a pending call leaves the turn paused; the next start resumes it paused and takes the answer', () => {
    const file = join(root, 'piped-resume.jsonl')
    const first = runCli(cli, 'delete c.txt\n', ['--session', file])
    expect(first.status).toBe(0)
    expect(first.stdout).toContain('input ended while delete_file waits for approval; the turn stays paused')
    expect(ofType(readLog(file), 'turn/end')).toEqual([])
    const second = runCli(cli, 'n not today\n', ['--session', file])
    expect(second.status).toBe(0)
    expect(second.stdout).toContain('approve delete_file({"path":"c.txt"})? y approves')
    const log = readLog(file)
    expect(decisions(log)).toEqual([{ decision: 'denied', reason: 'not today' }])
    expect(ofType(log, 'turn/end')).toEqual([{ turn: 1, reason: { kind: 'completed' } }])
  }, 60_000)

  it('y while no call waits for approval is plain text: a prompt', () => {
    const result = runCli(cli, 'y\n')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('you › y')
    expect(result.stdout).not.toContain('approved')
  }, 60_000)
})

const slow = { STEERABLE_DEMO_WORD_MS: '10', STEERABLE_DEMO_TOOL_MS: '300' }

describe.runIf(hasPty)('R67: approvals in the terminal', () => {
  it('the question shows above the status line, which says paused; y approves and the call runs', () => {
    const file = join(root, 'tty-yes.jsonl')
    const { status, output, error } = driveCli(
      cli,
      [
        { wait: 'steerable —' },
        { send: 'delete notes.txt\r' },
        { wait: 'approve delete_file({"path":"notes.txt"})? y approves · n or n <reason> denies' },
        { wait: 'paused · turn 1 step 1' },
        { send: 'y\r' },
        { wait: '✓ approved call delete_file-1-1' },
        { wait: 'Done: "notes.txt" is deleted' },
        { wait: 'idle' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      ['--session', file],
      slow,
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    expect(output).toContain('⏸ delete_file({"path":"notes.txt"}) waits for approval')
    const log = readLog(file)
    expect(decisions(log)).toEqual([{ decision: 'approved', reason: undefined }])
    expect(results(log)).toEqual(['ok'])
  }, 90_000)

  it('n denies, n <reason> denies with the reason; each call gets its DENIED result and the turn goes on', () => {
    const file = join(root, 'tty-no.jsonl')
    const { status, output, error } = driveCli(
      cli,
      [
        { wait: 'steerable —' },
        { send: 'delete a.txt\r' },
        { wait: 'approve delete_file({"path":"a.txt"})?' },
        { send: 'n\r' },
        { wait: '✗ denied call delete_file-1-1' },
        { wait: 'idle' },
        { send: 'delete b.txt\r' },
        { wait: 'approve delete_file({"path":"b.txt"})?' },
        { send: 'n not this one\r' },
        { wait: '✗ denied call delete_file-2-1: not this one' },
        { wait: 'Reason: not this one Anything else?' },
        { wait: 'idle' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      ['--session', file],
      slow,
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    expect(output).toContain('I left it alone. Denied: the user did not approve this call. Anything else?')
    const log = readLog(file)
    expect(decisions(log)).toEqual([
      { decision: 'denied', reason: undefined },
      { decision: 'denied', reason: 'not this one' },
    ])
    expect(results(log)).toEqual(['DENIED', 'DENIED'])
  }, 90_000)
})
