/**
 * Installs the peer library on first use. Kept apart from subjects.ts, which loads the built
 * library (dist/) when imported: bench/run.ts needs this before it has built dist/.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const peersDir = join(benchDir, 'peers')

/** Installs bench/peers from its lockfile on first use (`npm ci --prefix bench/peers`). */
export const ensurePeers = (): boolean => {
  if (existsSync(join(peersDir, 'node_modules', '@mariozechner', 'pi-agent-core', 'package.json')))
    return true
  console.error('installing the peer library: npm ci --prefix bench/peers')
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const result = spawnSync(npm, ['ci', '--prefix', peersDir, '--no-audit', '--no-fund'], { stdio: 'inherit' })
  return result.status === 0
}
