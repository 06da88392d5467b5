/**
 * The child-process harness (test/support/childProcesses.ts): waits woken by the lines
 * themselves, failures that say what the child printed, the deadline, and no child left behind
 * when its test ends, failed or not.
 */
import { describe, expect, it } from 'vitest'
import { runChild, startChild } from '../support/childProcesses.js'

/** A child running `script` with plain node. */
const node = (script: string, deadlineMs = 30_000) =>
  startChild(process.execPath, ['-e', script], { deadlineMs })

/** Whether a process with this pid exists. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('startChild', () => {
  it('a wait for a line is woken by the line, whenever it comes, and lines split across chunks stay whole', async () => {
    const child = node(`
      process.stdin.once('data', () => {
        process.stdout.write(Buffer.from([0xe2]))
        process.stdout.write(Buffer.from([0x9c, 0x93, 0x20, 0x72, 0x65, 0x61]))
        process.stdout.write('dy\\n')
        console.error('on stderr')
      })`)
    const ready = child.line(/ready$/)
    child.write('go\n')
    expect(await ready).toBe('✓ ready')
    expect(await child.line(/^on/, { stream: 'stderr' })).toBe('on stderr')
    child.end()
    const exit = await child.exit
    expect(exit).toMatchObject({ code: 0, signal: null, timedOut: false, stdout: '✓ ready\n' })
    expect(exit.output).toContain('on stderr')
  })

  it('a line that never comes fails once the child exits, naming what it waited for and what it printed', async () => {
    const child = node(`console.log('one'); console.error('why')`)
    await expect(child.line(/^two$/)).rejects.toThrow(
      /no line matching \/\^two\$\/ on stdout: it exited with code 0\n[\s\S]*one\n[\s\S]*why/,
    )
  })

  it('the deadline SIGKILLs a child that hangs; a wait on it fails saying so', async () => {
    const child = node('setInterval(() => {}, 1000)', 300)
    await expect(child.line(/never/)).rejects.toThrow(/was SIGKILLed at its 300 ms deadline/)
    expect(await child.exit).toMatchObject({ signal: 'SIGKILL', timedOut: true })
  })

  it('withinMs fails a wait, not the child; exitWithin does the same for the exit', async () => {
    const child = node('process.stdin.resume()')
    await expect(child.line(/never/, { withinMs: 50 })).rejects.toThrow(/none within 50 ms/)
    await expect(child.exitWithin(50)).rejects.toThrow(/no exit: none within 50 ms/)
    expect(child.running).toBe(true)
    child.end()
    expect((await child.exitWithin(30_000)).code).toBe(0)
    expect(child.running).toBe(false)
  })

  it('waitFor resolves with what its check returns, at the line that makes it true', async () => {
    const child = node(`for (const n of [1, 2, 3]) console.log('n ' + n)`)
    const count = await child.waitFor('three lines', () => child.lines.length >= 3 && child.lines.length)
    expect(count).toBe(3)
    expect(child.lines).toEqual(['n 1', 'n 2', 'n 3'])
  })

  it('onLine sees every line of both streams in order, and kill() reaps the child', async () => {
    const child = node(`console.log('a'); console.error('b'); setInterval(() => {}, 1000)`)
    const seen: string[] = []
    child.onLine((line, stream) => seen.push(`${stream} ${line}`))
    await child.line(/^b$/, { stream: 'stderr' })
    const exit = await child.kill()
    expect(exit.signal).toBe('SIGKILL')
    expect(seen).toEqual(['stdout a', 'stderr b'])
    expect(alive(child.pid)).toBe(false)
  })
})

describe('children are reaped when their test ends', () => {
  const left: number[] = []
  it('a passing test leaves a child running', () => {
    left.push(node('setInterval(() => {}, 1000)').pid)
  })
  it.fails('a failing test leaves a child running', () => {
    left.push(node('setInterval(() => {}, 1000)').pid)
    throw new Error('this test fails on purpose')
  })
  it('both children are gone', () => {
    expect(left).toHaveLength(2)
    expect(left.filter(alive)).toEqual([])
  })
})

describe('runChild', () => {
  it('runs a child to its end, and SIGKILLs one that outlives its deadline', () => {
    expect(runChild(process.execPath, ['-e', 'console.log(42)'], { deadlineMs: 30_000 })).toMatchObject({
      status: 0,
      stdout: '42\n',
      timedOut: false,
    })
    expect(
      runChild(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { deadlineMs: 300 }),
    ).toMatchObject({
      signal: 'SIGKILL',
      timedOut: true,
    })
  })
})
