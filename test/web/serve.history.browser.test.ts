/**
 * R79 on the serve page, in Chromium: a session that was forked, compacted and rolled back (the
 * log of test/support/historyLog.ts) is shown with what each did, and a rollback made while the
 * page is open shows at once. Nothing waits on a clock: each step waits for the element the one
 * before it causes.
 */
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { type Agent, createAgent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { type Served, serveAgent } from '../../src/web/server.js'
import { ARTIFACTS, describeBrowser, launch, watchedPage } from '../support/browser.js'
import { historyLog, SUMMARY } from '../support/historyLog.js'

let browser: Browser
let agent: Agent | undefined
let served: Served | undefined

describeBrowser('steerable serve: compaction, rollback and fork in a browser', () => {
  beforeAll(async () => {
    browser = await launch()
  }, 180_000)
  afterEach(async () => {
    await served?.close()
    await agent?.dispose()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('R79: the chat shows the fork, the compaction with how many messages it replaced and its summary folded under it, and the turn a rollback undid', async () => {
    const { events, from } = await historyLog()
    agent = createAgent({ model: scriptedModel(['re:seven']), history: events })
    served = await serveAgent(agent)
    const { page, errors } = await watchedPage(browser, 1300)
    await page.goto(served.url)
    await page.locator('[data-testid=status]', { hasText: 'idle' }).waitFor()

    const line = (cls: string) => page.locator(`[data-testid=transcript] li.${cls}`)
    await line('compaction').waitFor()
    expect(await line('fork').textContent()).toBe(`forked:from session ${from} at the end of turn 4`)
    const compaction = line('compaction')
    expect(await compaction.locator('.text').textContent()).toBe(
      '14 earlier messages (seq 2–38) replaced by a summary; 2 messages after them kept',
    )
    // The summary is folded: shown once opened.
    const summary = compaction.locator('[data-testid=detail] .detail')
    expect(await summary.isVisible()).toBe(false)
    await compaction.locator('summary').click()
    await summary.waitFor({ state: 'visible' })
    expect(await summary.textContent()).toBe(SUMMARY)
    expect(await line('rollback').locator('.text').textContent()).toBe(
      'turn 6 undone (back to the end of turn 5); 14 messages a compaction had replaced came back',
    )
    // Turn 6's prompt and answer stay in the chat, struck through; so does the compaction, which
    // came after turn 5 and is undone with it. Turn 5's lines are not.
    const struck = await page.$$eval('[data-testid=transcript] li.rolled-back', (lis) =>
      lis.map((li) => `${li.className.split(' ')[0]}: ${li.querySelector('.text')?.textContent}`),
    )
    expect(struck).toEqual([
      'compaction: 14 earlier messages (seq 2–38) replaced by a summary; 2 messages after them kept',
      'user-message: six',
      'assistant-message: re:six',
    ])
    expect(await page.locator('[data-testid=timeline] [data-lane=history]').count()).toBe(1)

    // A rollback made now shows at once, and the opened summary stays open through the redraws.
    await page.fill('[data-testid=prompt]', 'seven')
    await page.press('[data-testid=prompt]', 'Enter')
    await page.locator('[data-testid=transcript] li.assistant-message', { hasText: 're:seven' }).waitFor()
    await agent.whenIdle()
    agent.rollback(1)
    await line('rollback').nth(1).waitFor()
    expect(await line('rollback').nth(1).locator('.text').textContent()).toBe(
      'turn 7 undone (back to the end of turn 5)',
    )
    await page.locator('[data-testid=transcript] li.rolled-back', { hasText: 're:seven' }).waitFor()
    expect(await summary.isVisible()).toBe(true)
    await page.screenshot({ path: join(ARTIFACTS, 'serve-history.png'), fullPage: true })
    expect(await page.textContent('#error')).toBe('')
    expect(errors).toStrictEqual([])
  }, 120_000)
})
