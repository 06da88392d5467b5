/**
 * Regenerates docs/timeline.png, the picture in the README: the README's cancel scenario, run by
 * a real agent (test/support/timelineRuns.ts), rendered by renderTimeline and photographed in
 * Debian's Chromium (/usr/bin/chromium, or STEERABLE_CHROMIUM). Run `npm run screenshot`.
 */
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { renderTimeline } from '../src/timeline.js'
import { cancelScenarioRecord } from '../test/support/timelineRuns.js'

const root = join(import.meta.dirname, '..')
const browser = await chromium.launch({
  executablePath: process.env.STEERABLE_CHROMIUM ?? '/usr/bin/chromium',
})
try {
  const page = await browser.newPage({ viewport: { width: 760, height: 400 }, deviceScaleFactor: 1 })
  await page.setContent(
    renderTimeline(await cancelScenarioRecord(), { title: 'cancel: go hangs; steer, inject, queue; cancel' }),
  )
  await page.dispatchEvent('.axis[data-axis="order"] .bar.steering', 'click')
  const out = join(root, 'docs', 'timeline.png')
  await page.locator('.axis[data-axis="order"] svg').screenshot({ path: out })
  console.log(`wrote ${out}`)
} finally {
  await browser.close()
}
