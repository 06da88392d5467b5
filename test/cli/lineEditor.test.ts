/**
 * The terminal app's input line edits as readline does in a shell (Node's own readline handles
 * the keys), driven through a real pseudo-terminal: the keys typed, the screen read back.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCli, driveCli, hasPty } from '../support/cliCommand.js'

const root = mkdtempSync(join(tmpdir(), 'steerable-line-'))
let cli = ''
beforeAll(async () => {
  cli = await buildCli(root)
}, 60_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

const LEFT = '\x1b[D'
const HOME = '\x1b[H'
const END = '\x1b[F'
const UP = '\x1b[A'
const FAST = { STEERABLE_DEMO_WORD_MS: '1', STEERABLE_DEMO_TOOL_MS: '1' }

describe.runIf(hasPty)('the input line', () => {
  it('Left, Home, End, Ctrl-A/E/W/K edit where the cursor is; the welcome comes before the status line', () => {
    const { status, output, error } = driveCli(
      cli,
      [
        { wait: 'Enter sends' },
        // abc ← X Home Y: YabXc
        { send: `abc${LEFT}X${HOME}Y\r` },
        { wait: 'you › YabXc' },
        { wait: 'idle' },
        // "one two three", Ctrl-W deletes "three", Ctrl-A then Ctrl-K deletes it all, "kept", End, "!"
        { send: `one two three\x17` },
        { send: `\x01\x0bkept${HOME}${END}!\r` },
        { wait: 'you › kept!' },
        { wait: 'idle' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      [],
      FAST,
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    expect(output).not.toContain('you › abcXY')
    // Drawn once at start: nothing of the live region was drawn before the welcome line.
    expect(output.indexOf('steerable — type a prompt')).toBeLessThan(output.indexOf('Enter sends'))
    expect(output.slice(0, output.indexOf('steerable — type a prompt'))).not.toMatch(/idle/)
  }, 120_000)

  it('with nothing queued, Up brings back the line sent before', () => {
    const { status, output, error } = driveCli(
      cli,
      [
        { wait: 'Enter sends' },
        { send: 'first question\r' },
        { wait: 'you › first question' },
        { wait: 'idle' },
        { send: `${UP} again\r` },
        { wait: 'you › first question again' },
        { wait: 'idle' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      [],
      FAST,
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    expect(output).toContain('you › first question again')
  }, 120_000)
})
