import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { SessionEvent } from '../../src/index.js'
import { chatLine } from '../../src/web/app/renderChat.js'
import { ARTIFACTS, describeBrowser, launch, watchedPage } from '../support/browser.js'
import { buildServeCommand, type ServeProcess, startServe } from '../support/serveProcess.js'

/**
 * `steerable serve` end to end: the command and its page script are built as the package builds
 * them (the script beside the command), run as a real process on 127.0.0.1, and driven in
 * Chromium. The demo tool takes 10 minutes (it is cancelled), so everything below happens while it runs.
 */
const root = mkdtempSync(join(tmpdir(), 'steerable-serve-'))
const session = join(root, 'session.jsonl')
let server: ServeProcess | undefined
let url = ''
let browser: Browser

const startServer = async () => {
  const cli = await buildServeCommand(root)
  server = await startServe(cli, ['--session', session], { STEERABLE_DEMO_TOOL_MS: '600000' })
  url = server.url
}

/** Types `text` into the prompt and presses `key` (Enter steers, or prompts while idle; Tab queues). */
const type = async (page: Page, text: string, key: 'Enter' | 'Tab') => {
  await page.fill('[data-testid=prompt]', text)
  await page.press('[data-testid=prompt]', key)
}
const item = (page: Page, text: string, placement: string) =>
  page.locator(`[data-testid=item][data-placement=${placement}]`, { hasText: text })
const chat = (page: Page) =>
  page.$$eval('[data-testid=transcript] li', (lis) =>
    lis.map((li) => ({ seq: Number((li as HTMLElement).dataset.seq), line: li.textContent })),
  )

describeBrowser('steerable serve in a browser', () => {
  beforeAll(async () => {
    await startServer()
    browser = await launch()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.child.kill()
    rmSync(root, { recursive: true, force: true })
  })

  it('prompt, steer while the tool runs, queue, edit, promote, cancel with keep: the page shows each change and the log on disk matches', async () => {
    const { page, errors } = await watchedPage(browser, 1300)
    await page.goto(url)
    await page.locator('[data-testid=status]', { hasText: 'idle' }).waitFor()
    await type(page, 'tell me about rivers', 'Enter')
    await page.locator('[data-testid=timeline] .bar.tool.open').waitFor()
    await type(page, 'be brief', 'Enter')
    await item(page, 'be brief', 'steering').waitFor()
    await type(page, 'next question', 'Tab')
    const queued = item(page, 'next question', 'queued')
    await queued.waitFor()
    await queued.locator('[data-testid=edit]').click()
    await page.fill('[data-testid=edit-input]', 'edited question')
    await page.press('[data-testid=edit-input]', 'Enter')
    await item(page, 'edited question', 'queued').locator('[data-testid=promote]').click()
    await item(page, 'edited question', 'steering').waitFor()
    await page.screenshot({ path: join(ARTIFACTS, 'serve-steering.png'), fullPage: true })
    await page.click('[data-testid=cancel-keep]')
    await page.locator('[data-testid=transcript] li', { hasText: 'ended: aborted' }).waitFor()
    await page.locator('[data-testid=status]', { hasText: 'idle' }).waitFor()
    // Kept: both steering items still wait, and enter the next turn.
    expect(await page.locator('[data-testid=item][data-placement=steering]').count()).toBe(2)
    await type(page, 'and now?', 'Enter')
    await page
      .locator('[data-testid=transcript] li.steering-message', { hasText: 'edited question' })
      .waitFor()
    await page.click('[data-testid=cancel]')
    await expect
      .poll(() => page.locator('[data-testid=transcript] li', { hasText: 'ended: aborted' }).count())
      .toBe(2)
    await page.screenshot({ path: join(ARTIFACTS, 'serve-done.png'), fullPage: true })
    const shown = await chat(page)
    expect(errors).toStrictEqual([])

    server!.child.signal('SIGTERM')
    await server!.child.exit
    const log = readFileSync(session, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as SessionEvent)
    const expected = log.flatMap((e) => {
      const line = chatLine(e)
      return line ? [{ seq: e.seq, line: `${line.who}:${line.text}` }] : []
    })
    expect(shown).toStrictEqual(expected)
    expect(shown.map((s) => s.line)).toEqual(
      expect.arrayContaining(['steer:be brief', 'steer:edited question', 'you:and now?']),
    )
    // R88: with the server gone, the feed gives up after its retries and the page says so.
    await page
      .locator('[data-testid=status]', { hasText: 'disconnected: the server stopped' })
      .waitFor({ timeout: 120_000 })
  }, 360_000)
})
