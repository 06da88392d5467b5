/**
 * vitest globalSetup of the `postgres` project: one PostgreSQL server for the whole run, in a
 * process of its own (postgresServerMain.ts), stopped at the end. With `DATABASE_URL` set, the
 * tests use that server instead (each test file creates and drops a database of its own there,
 * so the role needs CREATEDB).
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL of a server the tests may create databases on. */
    postgresAdminUrl: string
  }
}

/** How long starting the server may take (initdb included) on a loaded machine. */
const START_MS = 120_000

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.DATABASE_URL
  if (given) {
    project.provide('postgresAdminUrl', given)
    return undefined
  }
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
  project.provide('postgresAdminUrl', url)
  return async () => {
    child.stdin.end()
    const killed = setTimeout(() => child.kill('SIGKILL'), 30_000)
    await exited
    clearTimeout(killed)
  }
}
