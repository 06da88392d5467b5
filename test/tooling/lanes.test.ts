/**
 * The lanes of `npm test` (scripts/lanes.ts) on tiny fake steps: a run that fails always says why,
 * as it happens and again in its summary: the exit code and the output of a failing step, the
 * signal of a killed one, the step that hung past the lane's deadline (killed, with what it
 * started), and the failing tests of a vitest report (scripts/vitestFailures.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type Lane, runLane, type Step } from '../../scripts/lanes.js'
import { vitestFailures } from '../../scripts/vitestFailures.js'
import { until } from '../support/until.js'

/** A step that runs `script` with plain node. */
const step = (name: string, script: string, explain?: () => string | undefined): Step => ({
  name,
  command: process.execPath,
  args: ['-e', script],
  ...(explain ? { explain } : {}),
})

const lane = (steps: readonly Step[], more: Partial<Lane> = {}): Lane => ({
  name: 'checks',
  steps,
  live: false,
  deadlineMs: 60_000,
  ...more,
})

/** Runs `lane`; what it wrote as it ran, and its result. */
const run = async (of: Lane) => {
  let written = ''
  const result = await runLane(of, (text) => {
    written += text
  }).done
  return { written, result }
}

/** Whether `pid` still runs: a zombie (killed, its exit not yet collected by init) does not. */
const alive = (pid: number) => {
  if (existsSync('/proc')) {
    const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : ''
    return stat !== '' && !/^\d+ \(.*\) Z/.test(stat)
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('runLane', () => {
  it('runs the steps in order and keeps what each printed', async () => {
    const { written, result } = await run(
      lane([step('one', 'console.log(1)'), step('two', 'console.log(2)')]),
    )
    expect(written).toBe('')
    expect(result.failure).toBeUndefined()
    expect(result.steps.map((s) => [s.name, s.output])).toEqual([
      ['one', '1\n'],
      ['two', '2\n'],
    ])
  })

  it('a failing step stops its lane, and its exit code and output are written at once and summarised', async () => {
    const { written, result } = await run(
      lane([
        step('typecheck', 'console.log("src/a.ts(1,1): error TS2322"); process.exit(2)'),
        step('never', ''),
      ]),
    )
    expect(result.steps.map((s) => s.name)).toEqual(['typecheck'])
    expect(written).toMatch(
      /npm test: typecheck \(the checks lane\) failed with exit code 2 after [\d.]+ s\n/,
    )
    expect(written).toContain('its output:\nsrc/a.ts(1,1): error TS2322')
    expect(result.failure).toMatch(/^npm test: typecheck \(the checks lane\) failed with exit code 2/)
    expect(result.failure).toContain('the end of its output:\nsrc/a.ts(1,1): error TS2322')
  })

  it('a step killed by a signal says which, and a shell exit code of 128 + n names signal n', async () => {
    const killed = await run(lane([step('build', 'process.kill(process.pid, "SIGKILL")')]))
    expect(killed.result.failure).toMatch(/^npm test: build \(the checks lane\) was killed by SIGKILL after/)
    expect(killed.written).toContain('(it printed nothing)')
    const shell = await run(lane([step('lint', 'process.exit(137)')]))
    expect(shell.result.failure).toMatch(/failed with exit code 137 \(what it ran was killed by SIGKILL\)/)
  })

  it('a step that hangs past the deadline is killed with what it started, and the lane names it', async () => {
    const hangs = step(
      'test:docs',
      `const { spawn } = require('node:child_process')
       const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
       console.log('pids', process.pid, grandchild.pid)
       setInterval(() => {}, 1000)`,
    )
    const { written, result } = await run(lane([hangs, step('never', '')], { deadlineMs: 1_000 }))
    expect(written).toMatch(
      /npm test: test:docs \(the checks lane\) hung: it still ran when the checks lane's 1\.0 s/,
    )
    expect(result.failure).toMatch(
      /hung: it still ran when the checks lane's 1\.0 s deadline passed \(it ran/,
    )
    expect(result.steps.map((s) => s.name)).toEqual(['test:docs'])
    const pids = /pids (\d+) (\d+)/.exec(result.steps[0]?.output ?? '')
    expect(pids).not.toBeNull()
    // SIGKILL is delivered at once but takes effect when the kernel next runs the process.
    await until(
      () => [Number(pids?.[1]), Number(pids?.[2])].every((pid) => !alive(pid)),
      'both processes gone',
    )
  })

  it('stop() kills the running step and the lane says why it stopped', async () => {
    const running = runLane(
      lane([step('check:package', 'console.log("packing"); setInterval(() => {}, 1000)')]),
      () => {},
    )
    running.stop('npm test received SIGTERM')
    const result = await running.done
    expect(result.failure).toMatch(/check:package \(the checks lane\) was stopped: npm test received SIGTERM/)
  })

  it('a live step has its output shown, not kept; its failure adds what explain() says', async () => {
    const { written, result } = await run(
      lane([step('test:unit', 'process.exit(1)', () => '1 failed:\n  ✗ test/a.test.ts > R1: a thing')], {
        name: 'tests',
        live: true,
      }),
    )
    expect(result.failure).toBe(
      'npm test: test:unit (the tests lane) failed with exit code 1 after ' +
        `${/after ([\d.]+ s)/.exec(result.failure ?? '')?.[1]}\n1 failed:\n  ✗ test/a.test.ts > R1: a thing`,
    )
    expect(written).toContain('✗ test/a.test.ts > R1: a thing')
  })
})

describe('vitestFailures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steerable-report-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const report = (testResults: unknown) => {
    const path = join(dir, 'report.json')
    writeFileSync(path, JSON.stringify({ testResults }))
    return path
  }

  it('lists each failing test with the start of its error, without the frames of vitest and node', () => {
    const path = report([
      {
        name: join(dir, 'test/a.test.ts'),
        status: 'failed',
        assertionResults: [
          { title: 'R1: passes', ancestorTitles: ['group'], status: 'passed', failureMessages: [] },
          {
            title: 'R2: fails',
            ancestorTitles: ['group'],
            status: 'failed',
            failureMessages: [
              '\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at test/a.test.ts:4:42\n    at file:///x/node_modules/@vitest/runner/dist/index.js:1:1',
            ],
          },
        ],
      },
      { name: join(dir, 'test/b.test.ts'), status: 'failed', message: 'Cannot find module ./missing.js' },
    ])
    expect(vitestFailures(path, dir)).toBe(
      [
        '2 failed:',
        '  ✗ test/a.test.ts > group > R2: fails',
        '      AssertionError: expected 1 to be 2',
        '          at test/a.test.ts:4:42',
        '  ✗ test/b.test.ts, outside its tests',
        '      Cannot find module ./missing.js',
      ].join('\n'),
    )
  })

  it('says so when no test failed, and when there is no report', () => {
    expect(vitestFailures(report([{ name: 'a', status: 'passed', assertionResults: [] }]))).toMatch(
      /^no test failed: vitest failed outside the tests/,
    )
    expect(vitestFailures(join(dir, 'none.json'))).toMatch(/^vitest wrote no report/)
  })
})
