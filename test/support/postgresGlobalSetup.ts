/**
 * vitest globalSetup of the `postgres` project: one PostgreSQL server for the whole run, in a
 * process of its own (postgresServerMain.ts), stopped at the end. With `DATABASE_URL` set, the
 * tests use that server instead (each test file creates and drops a database of its own there,
 * so the role needs CREATEDB).
 */
import type { TestProject } from 'vitest/node'
import { startServerProcess } from './postgresServerProcess.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL of a server the tests may create databases on. */
    postgresAdminUrl: string
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.DATABASE_URL
  if (given) {
    project.provide('postgresAdminUrl', given)
    return undefined
  }
  const server = await startServerProcess()
  project.provide('postgresAdminUrl', server.url)
  return () => server.stop()
}
