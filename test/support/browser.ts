import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { describe } from 'vitest'

/** Debian's Chromium (`apt-get install chromium`); .ci/run installs it when it is missing. */
export const CHROMIUM = process.env.STEERABLE_CHROMIUM ?? '/usr/bin/chromium'
/** CI sets `CI`; .ci/run sets `STEERABLE_CI` (also when a person runs it). */
const inCI = ((process.env.CI ?? '') !== '' && process.env.CI !== 'false') || process.env.STEERABLE_CI === '1'
const present = existsSync(CHROMIUM)

/**
 * `describe` for the browser tests. They skip only on a developer's machine without Chromium (and
 * say so); in CI they always run, so a missing browser fails them instead of hiding them.
 */
export const describeBrowser = present || inCI ? describe : describe.skip
if (!present && !inCI)
  console.warn(
    `browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set STEERABLE_CHROMIUM)`,
  )

/** Where screenshots go: test artifacts, not committed. */
export const ARTIFACTS = join(import.meta.dirname, '..', '..', '.artifacts', 'screenshots')

export const launch = (): Promise<Browser> => {
  mkdirSync(ARTIFACTS, { recursive: true })
  return chromium.launch({ executablePath: CHROMIUM, timeout: 120_000 })
}

/** A page that collects console errors and uncaught exceptions into `errors`. */
export const watchedPage = async (
  browser: Browser,
  width = 1200,
): Promise<{ page: Page; errors: string[] }> => {
  const page = await browser.newPage({ viewport: { width, height: 800 } })
  page.setDefaultTimeout(60_000)
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(String(e)))
  return { page, errors }
}
