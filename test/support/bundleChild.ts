import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/**
 * Bundles a crash-test child (`test/support/children/<name>.ts`) into `<dir>/<name>.mjs` with esbuild (the
 * bundler under tsup and tsx), to be run with plain `node`: starting it through tsx costs about
 * four times more per spawn, which tests with dozens of spawns cannot afford. The folder is made
 * readable to all, so a child run as an unprivileged user reaches the bundle.
 */
export const bundleChild = async (name: string, dir: string): Promise<string> => {
  const outfile = join(dir, `${name}.mjs`)
  await build({
    entryPoints: [fileURLToPath(new URL(`./children/${name}.ts`, import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  })
  chmodSync(dir, 0o755)
  return outfile
}
