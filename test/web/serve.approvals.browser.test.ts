/**
 * R67 on the `steerable serve` page, in Chromium: the command as the package builds it, on the
 * demo model, whose `delete_file` tool needs approval. The page shows the paused state and the
 * pending call with its arguments; the reason box and the Deny and Approve buttons decide it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { SessionEvent } from '../../src/index.js'
import { ARTIFACTS, describeBrowser, launch, watchedPage } from '../support/browser.js'
import { buildServeCommand, type ServeProcess, startServe } from '../support/serveProcess.js'

const root = mkdtempSync(join(tmpdir(), 'steerable-serve-approvals-'))
const session = join(root, 'session.jsonl')
let served: ServeProcess
let browser: Browser

const prompt = async (page: Page, text: string) => {
  await page.fill('[data-testid=prompt]', text)
  await page.press('[data-testid=prompt]', 'Enter')
}
const status = (page: Page, text: string) => page.locator('[data-testid=status]', { hasText: text }).waitFor()
const chatLine = (page: Page, text: string) =>
  page.locator('[data-testid=transcript] li', { hasText: text }).waitFor()

describeBrowser('steerable serve: approvals in a browser', () => {
  beforeAll(async () => {
    // --demo-speed 5: the demo's words and its tool go five times as fast.
    served = await startServe(await buildServeCommand(root), ['--session', session, '--demo-speed', '5'])
    browser = await launch()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await served?.child.kill()
    rmSync(root, { recursive: true, force: true })
  })

  it('the page shows paused and the pending call; Deny with a reason, then Approve, decide it; the log on disk agrees', async () => {
    const { page, errors } = await watchedPage(browser, 1300)
    await page.goto(served.url)
    await status(page, 'idle')
    expect(await page.isHidden('[data-testid=approvals-panel]')).toBe(true)

    await prompt(page, 'delete notes.txt')
    const first = page.locator('[data-testid=approval]', { hasText: 'delete_file' })
    await first.waitFor()
    await status(page, 'paused')
    expect(await first.locator('[data-testid=approval-arguments]').textContent()).toBe('{"path":"notes.txt"}')
    expect(await page.$eval('[data-testid=status]', (el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(239, 108, 0)',
    )
    await page.screenshot({ path: join(ARTIFACTS, 'serve-approval.png'), fullPage: true })
    await first.locator('[data-testid=approval-reason]').fill('keep it, it is mine')
    await first.locator('[data-testid=deny]').click()
    // The tool's result line: the model's answer after it may quote the reason too.
    await page
      .locator('[data-testid=transcript] li.tool-result', { hasText: 'Reason: keep it, it is mine' })
      .waitFor()
    await chatLine(page, 'denied:delete_file-1-1 by user: keep it, it is mine')
    await page.locator('[data-testid=approvals-panel]').waitFor({ state: 'hidden' })
    await status(page, 'idle')

    await prompt(page, 'delete old.log')
    const second = page.locator('[data-testid=approval]', { hasText: '{"path":"old.log"}' })
    await second.waitFor()
    await second.locator('[data-testid=approve]').click()
    await chatLine(page, 'approved:delete_file-2-1 by user')
    await chatLine(page, 'Done: "old.log" is deleted')
    await status(page, 'idle')
    expect(await page.locator('[data-testid=approval]').count()).toBe(0)
    expect(await page.textContent('#error')).toBe('')
    expect(errors).toStrictEqual([])

    served.child.signal('SIGTERM')
    await served.child.exit
    const log = readFileSync(session, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as SessionEvent)
    const decided = log.flatMap((e) =>
      e.type === 'approval/decision' ? [{ decision: e.data.decision, reason: e.data.reason }] : [],
    )
    expect(decided).toEqual([
      { decision: 'denied', reason: 'keep it, it is mine' },
      { decision: 'approved', reason: undefined },
    ])
  }, 240_000)
})
