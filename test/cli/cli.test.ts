import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCli, driveCli, FAST, hasPty, type Logged, readLog, runCli } from '../support/cliCommand.js'

/** The `steerable` command end to end, bundled once (test/support/cliCommand.ts). */
const root = mkdtempSync(join(tmpdir(), 'steerable-cli-'))
let cli = ''

beforeAll(async () => {
  cli = await buildCli(root)
}, 60_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

const run = (input: string, args: readonly string[] = [], env: Record<string, string> = FAST) =>
  runCli(cli, input, args, env)

describe('steerable without a terminal', () => {
  it('each input line is a prompt; the transcript is printed as it is written', () => {
    const result = run('hello there\n')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('you › hello there')
    expect(result.stdout).toContain('assistant › Let me check my notes on "hello there".')
    expect(result.stdout).toContain('⚙ notes({"topic":"hello there"})')
    expect(result.stdout).toMatch(/assistant › My notes say: .* Anything else\?/)
  }, 60_000)

  it('lines starting with / are the commands: /inject, /queue, /steer, /help, unknown ones', () => {
    const result = run('/inject the user is on a train\nfirst\n/queue second\n/help\n/nope\n')
    expect(result.status).toBe(0)
    const out = result.stdout
    expect(out).toContain('[inject] the user is on a train')
    expect(out.indexOf('you › first')).toBeGreaterThan(out.indexOf('[inject] the user is on a train'))
    expect(out.indexOf('you › second')).toBeGreaterThan(out.indexOf('you › first'))
    expect(out).toContain('/queue text · /steer text')
    expect(out).toContain('/promote N · /drop N · /move N M')
    expect(out).toContain('unknown command: /nope')
  }, 60_000)

  it('with no input at all (npm start in CI) it runs the short scripted demo and exits', () => {
    const result = run('')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('▶ followup("What is the weather in Paris?")')
    expect(result.stdout).toContain('steering(Also Rome, please.)')
    expect(result.stdout).toContain('turn/end(2,aborted)')
    expect(result.stdout).toMatch(/done: \d+ durable events, agent disposed\./)
  }, 60_000)

  it('R37: --session persists to a file and the next start resumes it (turns and messages continue)', () => {
    const file = join(root, 'resume.jsonl')
    expect(run('first question\n', ['--session', file]).status).toBe(0)
    const second = run('second question\n', ['--session', file])
    expect(second.status).toBe(0)
    expect(second.stdout).toMatch(/resumed .*resume\.jsonl: \d+ events, 1 turns/)
    const log = readLog(file)
    const turns = log.filter((e) => e.type === 'turn/start').map((e) => e.data.turn)
    expect(turns).toEqual([1, 2])
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1))
  }, 60_000)

  it('R4: piped text behaves as typed text: the second line steers the turn the first one started', () => {
    const file = join(root, 'piped-steer.jsonl')
    // The default pace: the first turn is still running when the second line is read.
    const result = run('hello\nbe brief\n', ['--session', file], {})
    expect(result.status).toBe(0)
    const log = readLog(file)
    expect(log.filter((e) => e.type === 'turn/start')).toHaveLength(1)
    expect(log.filter((e) => e.type === 'steering/message').map((e) => e.data.turn)).toEqual([1])
    expect(result.stdout).toContain('you (steer) › be brief')
  }, 60_000)

  it('blank lines are skipped, not sent as empty prompts (and blank input still runs the demo)', () => {
    const file = join(root, 'blank.jsonl')
    expect(run('\n   \nhello\n\n', ['--session', file]).status).toBe(0)
    const prompts = readLog(file).filter((e) => e.type === 'user/message')
    expect(prompts.map((e) => (e.data.content as { text: string }[])[0]?.text)).toEqual(['hello'])
    expect(run('\n\n').stdout).toContain('▶ followup("What is the weather in Paris?")')
  }, 60_000)

  it('R25: /cancel says what it dropped', () => {
    const result = run('first\n/queue second\n/queue third\n/cancel\n', [], {})
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('dropped 2 waiting: "second" · "third"')
  }, 60_000)

  it('R43, R45, R46: /move N M, /promote N and /drop N act on the waiting items as /inbox numbers them; receipts say what became of each message', () => {
    const file = join(root, 'piped-control.jsonl')
    const lines = ['hello', '/queue a', '/queue b', '/queue c', '/move 3 1', '/promote 3', '/drop 2']
    const more = ['/inject on a train', '/inbox', '/drop 9', '/move 1']
    // A slow tool: the first turn still runs while the lines are read.
    const result = run(`${[...lines, ...more].join('\n')}\n`, ['--session', file], {
      STEERABLE_DEMO_WORD_MS: '5',
      STEERABLE_DEMO_TOOL_MS: '1500',
    })
    expect(result.status).toBe(0)
    const out = result.stdout
    // /move 3 1 made the queue c, a, b; /promote 3 steered b in; /drop 2 removed a.
    expect(out).toContain('  1 queued · c\n  2 steering · b\n  3 context · on a train\n')
    expect(out).toContain('no item 9: the waiting items are numbered 1 to 3')
    expect(out).toContain('usage: /move N M')
    expect(out).toContain('✓ ran as turn 1 · hello')
    expect(out).toMatch(/✓ steered into 1\.\d+ · b/)
    expect(out).toContain('✓ noted (context) · on a train')
    expect(out).toContain('✗ dropped (removed) · a')
    expect(out).toContain('✓ ran as turn 2 · c')
    const log = readLog(file)
    const text = (e: Logged) => (e.data.content as { text: string }[])[0]?.text
    expect(log.filter((e) => e.type === 'user/message').map(text)).toEqual(['hello', 'on a train', 'c'])
    expect(log.filter((e) => e.type === 'steering/message').map((e) => [text(e), e.data.turn])).toEqual([
      ['b', 1],
    ])
  }, 60_000)

  it('a run in which a turn ended with an error exits 1', () => {
    // A model endpoint that refuses connections: the request fails, the turn ends with an error.
    const result = run('hello\n', ['--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'])
    expect(result.stdout).toMatch(/turn 1 error|error \(turn 1, step 1\)/)
    expect(result.stderr).toContain('a turn ended with an error')
    expect(result.status).toBe(1)
  }, 60_000)

  it("--demo-speed sets the demo model's pace; a bad value exits 2", () => {
    const started = Date.now()
    expect(run('hello\n', ['--demo-speed', '50'], {}).status).toBe(0)
    expect(Date.now() - started).toBeLessThan(20_000)
    const bad = run('', ['--demo-speed', '0'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('--demo-speed: expected a number > 0')
  }, 60_000)

  it('--help prints the usage; an unknown flag exits 2 with the usage', () => {
    expect(run('', ['--help']).stdout).toContain('Usage: steerable [options]')
    const bad = run('', ['--frobnicate'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('Usage: steerable [options]')
  }, 60_000)
})

const drive = (steps: readonly object[], args: readonly string[], env: Record<string, string>) =>
  driveCli(cli, steps, args, env)

describe.runIf(hasPty)('steerable in a terminal', () => {
  it('R25: Esc drops the queued prompts, puts their text back in the input line, and the status line keeps saying so', () => {
    const file = join(root, 'esc.jsonl')
    const { status, output, error } = drive(
      [
        { wait: 'steerable —' },
        { send: 'first\r' },
        { wait: 'Let me check' },
        { send: 'come back\t' },
        { wait: 'queued 1' },
        { send: '\x1b' },
        { wait: '(turn 1 aborted)' },
        { wait: 'idle' },
        { wait: '› come back' },
        { send: '\r' },
        { wait: 'you › come back' },
        { wait: 'idle' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      ['--session', file],
      { STEERABLE_DEMO_WORD_MS: '40', STEERABLE_DEMO_TOOL_MS: '1500' },
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    // Not a flash: the idle status line after the cancel still says what was dropped and where it went.
    expect(output).toMatch(
      /idle · [^\n]*dropped 1 waiting: "come back" — its text is back in the input line: Enter sends it again, Ctrl-U clears it/,
    )
    const prompts = readLog(file).filter((e) => e.type === 'user/message')
    expect(prompts.map((e) => (e.data.content as { text: string }[])[0]?.text)).toEqual([
      'first',
      'come back',
    ])
  }, 90_000)

  const slow = { STEERABLE_DEMO_WORD_MS: '40', STEERABLE_DEMO_TOOL_MS: '1500' }

  it('Ctrl-U clears the input line', () => {
    const { status, output, error } = drive(
      [
        { wait: 'steerable —' },
        { send: 'not this' },
        { wait: '› not this' },
        { send: '\x15' },
        { send: 'hello\r' },
        { wait: 'you › ' },
        { wait: 'idle' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      [],
      FAST,
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    expect(output).toMatch(/you › hello\n/)
    expect(output).not.toContain('you › not this')
  }, 90_000)

  it('R4, R16, R20: Enter while a turn streams steers it; the steer lands in the same turn, before its next step', () => {
    const file = join(root, 'steer.jsonl')
    const { status, output, error } = drive(
      [
        { wait: 'steerable —' },
        { send: 'what is steering\r' },
        { wait: 'Let me check' },
        { send: 'be brief\r' },
        { wait: 'staged 1' },
        { wait: 'You said "be brief"' },
        { wait: 'idle' },
        { send: '/quit\r' },
        { wait: 'bye' },
      ],
      ['--session', file],
      slow,
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    expect(output).toContain('you (steer) › be brief')
    const log = readLog(file)
    const steering = log.filter((e) => e.type === 'steering/message')
    expect(steering.map((e) => e.data.turn)).toEqual([1])
    expect(log.filter((e) => e.type === 'turn/start')).toHaveLength(1)
    const steerAt = log.indexOf(steering[0] as Logged)
    const nextStep = log.findIndex((e, i) => i > steerAt && e.type === 'step/start')
    expect(log[nextStep]?.data).toEqual({ turn: 1, step: 2 })
  }, 90_000)

  it('Tab queues a followup for its own turn; Esc cancels the running turn', () => {
    const file = join(root, 'keys.jsonl')
    const { status, output, error } = drive(
      [
        { wait: 'steerable —' },
        { send: 'first\r' },
        { wait: 'Let me check' },
        { send: 'later\t' },
        { wait: 'queued 1' },
        { wait: 'you › later' },
        { wait: 'Let me check my notes on "later"' },
        { send: '\x1b' },
        { wait: '(turn 2 aborted)' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      ['--session', file],
      slow,
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    expect(output).toContain('(turn 2 aborted)')
    const ends = readLog(file).filter((e) => e.type === 'turn/end')
    expect(ends.map((e) => (e.data.reason as { kind: string }).kind)).toEqual(['completed', 'aborted'])
  }, 90_000)

  it('R68: Esc while the answer streams keeps the text streamed so far in the scrollback, marked cut', () => {
    // A word every two seconds: the Esc lands while the first step streams, whatever the load.
    const { status, output, error } = drive(
      [
        { wait: 'steerable —' },
        { send: 'first\r' },
        { wait: 'Let me' },
        { send: '\x1b' },
        { wait: '(turn 1 aborted)' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      [],
      { STEERABLE_DEMO_WORD_MS: '2000', STEERABLE_DEMO_TOOL_MS: '1' },
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    expect(output).toMatch(/assistant › Let me[^\n]*… \[cut\]/)
    expect(output.indexOf('[cut]')).toBeLessThan(output.indexOf('(turn 1 aborted)'))
  }, 90_000)

  const text = (e: Logged) => (e.data.content as { text: string }[])[0]?.text
  const quick = { STEERABLE_DEMO_WORD_MS: '10', STEERABLE_DEMO_TOOL_MS: '1500' }

  it('R41, R46: the waiting items show numbered under the status line; Ctrl-P steers the last queued one in', () => {
    const file = join(root, 'list.jsonl')
    const { status, output, error } = drive(
      [
        { wait: 'steerable —' },
        { send: 'first\r' },
        { wait: 'Let me check' },
        { send: 'later\t' },
        { send: 'be brief\r' },
        { wait: '2 steering · be brief' },
        { send: '\x10' },
        { wait: '2 steering · later' },
        { wait: '✓ steered into 1.' },
        { wait: 'idle' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      ['--session', file],
      quick,
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    // The status line, then the numbered items, then the input line.
    expect(output).toMatch(/queued 1 · staged 1 [^\n]*\n {2}1 queued · later\n {2}2 steering · be brief\n› /)
    expect(output).toContain('✓ ran as turn 1 · first')
    const log = readLog(file)
    expect(log.filter((e) => e.type === 'steering/message').map(text)).toEqual(['be brief', 'later'])
    expect(log.filter((e) => e.type === 'turn/start')).toHaveLength(1)
  }, 90_000)

  it('R44: Up takes a queued item into the input line, Esc cancels the edit, Enter puts the edit back in place (same id, same turn)', () => {
    const file = join(root, 'edit.jsonl')
    const { status, output, error } = drive(
      [
        { wait: 'steerable —' },
        { send: 'first\r' },
        { wait: 'Let me check' },
        { send: 'a\t' },
        { send: 'b\t' },
        { send: 'c\t' },
        { wait: '3 queued · c' },
        { send: '\x1b[A' },
        { wait: '› c' },
        { send: '\x1b' },
        { wait: 'Up edits' },
        { send: '\x1b[A' },
        { send: '\x1b[A' },
        { wait: '› b' },
        { send: '\x7fB!\r' },
        { wait: 'queued · B!' },
        { wait: '✓ ran as turn 4 · c' },
        { wait: 'idle' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      ['--session', file],
      quick,
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    expect(output).toContain('✓ ran as turn 3 · B!')
    const prompts = readLog(file).filter((e) => e.type === 'user/message')
    expect(prompts.map(text)).toEqual(['first', 'a', 'B!', 'c'])
    // Ids sort in acceptance order: B! kept the id of b, accepted before c (a new send would
    // have a later one).
    const [, a, edited, c] = prompts.map((e) => String(e.data.id))
    expect([a, edited, c]).toEqual([a, edited, c].sort())
  }, 90_000)

  it('R43, R46: /drop 1 removes a queued item, /promote 1 steers one into the running turn; receipts say so', () => {
    const file = join(root, 'drop-promote.jsonl')
    const { status, output, error } = drive(
      [
        { wait: 'steerable —' },
        { send: 'first\r' },
        { wait: 'Let me check' },
        { send: 'gone\t' },
        { send: 'steer me\t' },
        { wait: '2 queued · steer me' },
        { send: '/drop 1\r' },
        { wait: '✗ dropped (removed) · gone' },
        { wait: '1 queued · steer me' },
        { send: '/promote 1\r' },
        { wait: '1 steering · steer me' },
        { wait: '✓ steered into 1.' },
        { wait: 'idle' },
        { send: '\x04' },
        { wait: 'bye' },
      ],
      ['--session', file],
      quick,
    )
    expect(error).toBe('')
    expect(status).toBe(0)
    expect(output).toContain('✓ ran as turn 1 · first')
    const log = readLog(file)
    expect(log.filter((e) => e.type === 'user/message').map(text)).toEqual(['first'])
    expect(log.filter((e) => e.type === 'steering/message').map((e) => [text(e), e.data.turn])).toEqual([
      ['steer me', 1],
    ])
  }, 90_000)
})
