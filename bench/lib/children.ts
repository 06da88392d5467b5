/**
 * Runs one measure in a child process of its own (`--expose-gc`), so every subject starts from a
 * clean heap and no subject's garbage or JIT state is inherited by another. The child prints its
 * result as the last line of stdout, as JSON; `childMain` is the child's side.
 */
import { spawnSync } from 'node:child_process'

/** The child's result, or `undefined` (with the child's stderr printed) when it failed. */
export const inChild = <T>(script: string, args: readonly string[], timeoutMs = 600_000): T | undefined => {
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, '--child', ...args], {
    encoding: 'utf8',
    cwd: process.cwd(),
    timeout: timeoutMs,
    maxBuffer: 1 << 26,
  })
  const line = result.stdout?.trim().split('\n').at(-1) ?? ''
  if (result.status !== 0 || !line.startsWith('{')) {
    console.error(
      `child ${args.join(' ')} failed (${result.signal ?? `exit ${result.status}`}):\n${result.stderr}`,
    )
    return undefined
  }
  return JSON.parse(line) as T
}

/** The arguments after `--child` when this process is a child, else `undefined`. */
export const childArgs = (): readonly string[] | undefined => {
  const at = process.argv.indexOf('--child')
  return at >= 0 ? process.argv.slice(at + 1) : undefined
}

/** Prints a child's result for `inChild` and exits (the agents it made may hold timers). */
export const childDone = (result: unknown): never => {
  console.log(JSON.stringify(result))
  process.exit(0)
}
