/**
 * R65 crash test: a child process (test/support/children/crashPauseChild.ts) on a `fileStore`
 * pauses on two approvals, then keeps receiving followups, steers and injects while paused, and
 * reports the state each resolved `session.flush()` covered. It is SIGKILLed at random moments,
 * 24 times over two files, each kill followed by a new child on the same file. After each reopen
 * the pause is there with the same approvals, and the queue and the outbox begin with what was
 * reported durable. Last, this process opens each session, decides, and the turn completes with
 * every result exactly once, every waiting send delivered exactly once, and no call that was not
 * approved ever run (V9).
 *
 * The child is bundled once with esbuild and run with plain `node`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleChild, type ChildProgram } from '../support/bundleChild.js'
import { mulberry32 } from '../support/mulberry32.js'
import { completePausedSession } from '../support/pausedSession.js'

/** A child that never pauses (or wedges) is killed here, and the run says so. */
const CHILD_DEADLINE_MS = 90_000

const root = mkdtempSync(join(tmpdir(), 'steerable-crash-pause-'))
let program: ChildProgram
beforeAll(async () => {
  program = await bundleChild('crashPauseChild', { deadlineMs: CHILD_DEADLINE_MS })
}, 120_000)
afterAll(() => {
  program.remove()
  rmSync(root, { recursive: true, force: true })
})

type State = { status: string; approvals: string[]; queue: string[]; outbox: string[] }
type Run = { restored?: State; paused?: State; durable: State[]; errors: string[]; killed: boolean }

/** Runs the child on `log`; SIGKILLs it `killAfterMs` after its `paused` line. */
const runChild = async (log: string, seed: number, killAfterMs: number): Promise<Run> => {
  const child = program.start({ args: [log, String(seed)], stdin: 'ignore' })
  const run: Run = { durable: [], errors: [], killed: false }
  child.onLine((line, stream) => {
    if (stream !== 'stdout') return
    const space = line.indexOf(' ')
    const [word, rest] = space === -1 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)]
    if (word === 'restored') run.restored = JSON.parse(rest) as State
    else if (word === 'paused') {
      run.paused = JSON.parse(rest) as State
      setTimeout(() => {
        run.killed = true
        void child.kill()
      }, killAfterMs)
    } else if (word === 'durable') run.durable.push(JSON.parse(rest) as State)
    else if (word === 'error') run.errors.push(rest)
  })
  const { signal, stderr, timedOut } = await child.exit
  if (timedOut) run.errors.push(`no kill within ${CHILD_DEADLINE_MS} ms: the child never reported its pause`)
  if (signal !== 'SIGKILL' || !run.killed) run.errors.push(`exited ${String(signal)}: ${stderr}`)
  return run
}

const startsWith = (list: readonly string[], prefix: readonly string[]) =>
  prefix.every((id, i) => list[i] === id)

describe('R65: a paused session survives SIGKILL', () => {
  it('R65, R51, R52, V9: 24 kills while paused; each reopen is paused as flushed; approving completes every call once', async () => {
    const files = 2
    const kills = 12
    const totals = { kills: 0, durableReports: 0, waitingAtEnd: 0 }
    await Promise.all(
      Array.from({ length: files }, async (_, f) => {
        const log = join(root, `paused-${f}.jsonl`)
        const delays = mulberry32(0xa11 + f)
        let expected: State | undefined
        for (let k = 0; k < kills; k++) {
          const run = await runChild(log, 100 * f + k + 1, Math.floor(delays() * 60))
          const at = `file ${f}, run ${k}`
          expect(run.errors, at).toStrictEqual([])
          totals.kills++
          totals.durableReports += run.durable.length
          if (expected !== undefined) {
            const restored = run.restored as State
            expect(restored.status, `${at}: reopened`).toBe('paused')
            expect(restored.approvals, `${at}: the approvals`).toStrictEqual(expected.approvals)
            expect(startsWith(restored.queue, expected.queue), `${at}: the queue ${restored.queue}`).toBe(
              true,
            )
            expect(startsWith(restored.outbox, expected.outbox), `${at}: the outbox ${restored.outbox}`).toBe(
              true,
            )
          }
          // What this child reported durable last, or what it opened with: the next must have it.
          expected = run.durable.at(-1) ?? run.paused
          expect(expected?.approvals, `${at}: paused on`).toStrictEqual(['c1', 'c3'])
        }
        totals.waitingAtEnd += await completePausedSession(log, expected as State)
      }),
    )
    expect(totals.kills).toBe(files * kills)
    // The runs did work: flushes resolved while paused, and sends waited through the kills.
    expect(totals.durableReports).toBeGreaterThan(0)
    expect(totals.waitingAtEnd).toBeGreaterThan(0)
    console.info('R65 crash test:', totals)
  }, 240_000)
})
