/**
 * What a failed `vitest run` says went wrong, read from its JSON report (vitest.config.ts writes
 * .vitest/report.json): each failing test with the start of its error, and each file that failed
 * without a failing test (it did not load, or a hook failed). `npm test` prints it where CI shows
 * it, after the run's own output.
 */
import { existsSync, readFileSync } from 'node:fs'
import { relative } from 'node:path'

type Report = {
  readonly testResults?: readonly {
    readonly name: string
    readonly status: string
    readonly message?: string
    readonly assertionResults?: readonly {
      readonly ancestorTitles?: readonly string[]
      readonly title: string
      readonly status: string
      readonly failureMessages?: readonly string[]
    }[]
  }[]
}

/** Lines of each error shown; the report and the run's output above have the rest. */
const ERROR_LINES = 12
const MAX_FAILURES = 30

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts a terminal colour.
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '')

/** A stack frame inside vitest, node or a dependency: noise beside the test's own frames. */
const foreign = (line: string) => /^\s+at /.test(line) && /node_modules|node:internal|<anonymous>/.test(line)

const excerpt = (error: string): string => {
  const lines = plain(error)
    .trimEnd()
    .split('\n')
    .filter((line) => !foreign(line))
  const shown = lines.slice(0, ERROR_LINES)
  if (lines.length > ERROR_LINES) shown.push(`… (${lines.length - ERROR_LINES} more lines)`)
  return shown.map((line) => `      ${line}`).join('\n')
}

/** The failures the report at `reportPath` lists, in lines for a reader; paths relative to `root`. */
export const vitestFailures = (reportPath: string, root = process.cwd()): string => {
  if (!existsSync(reportPath))
    return 'vitest wrote no report: it was killed, or it stopped before its tests ran'
  let report: Report
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report
  } catch (error) {
    return `vitest's report ${reportPath} could not be read: ${(error as Error).message}`
  }
  const failures: { title: string; error: string }[] = []
  for (const file of report.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed')
    for (const test of failed)
      failures.push({
        title: [relative(root, file.name), ...(test.ancestorTitles ?? []), test.title].join(' > '),
        error: test.failureMessages?.[0] ?? '',
      })
    if (failed.length === 0 && file.status === 'failed')
      failures.push({ title: `${relative(root, file.name)}, outside its tests`, error: file.message ?? '' })
  }
  if (failures.length === 0)
    return 'no test failed: vitest failed outside the tests (an unhandled error, or its global setup); its output says why'
  const shown = failures.slice(0, MAX_FAILURES).map(({ title, error }) => `  ✗ ${title}\n${excerpt(error)}`)
  if (failures.length > MAX_FAILURES)
    shown.push(`  … and ${failures.length - MAX_FAILURES} more in ${reportPath}`)
  return [`${failures.length} failed:`, ...shown].join('\n')
}
