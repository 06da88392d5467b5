/**
 * Starts postgresServerMain.ts (one PostgreSQL server) in a process of its own and waits for its
 * URL; `stop()` closes its stdin (it stops the server and exits), killing it if it does not.
 * Used by the tests' globalSetup and by the benchmarks.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'

/** How long starting the server may take (initdb included) on a loaded machine. */
const START_MS = 120_000

export const startServerProcess = async (): Promise<{ url: string; stop(): Promise<void> }> => {
  const root = join(import.meta.dirname, '..', '..')
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'postgresServerMain.ts')],
    {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`PostgreSQL did not start in ${START_MS} ms`)), START_MS)
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const ready = /^ready (\S+)$/m.exec(out)
      if (!ready) return
      clearTimeout(timer)
      resolve(ready[1]!)
    })
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`the PostgreSQL server process ended before it was ready:\n${out}`))
    })
  })
  return {
    url,
    stop: async () => {
      child.stdin.end()
      const killed = setTimeout(() => child.kill('SIGKILL'), 30_000)
      await exited
      clearTimeout(killed)
    },
  }
}
