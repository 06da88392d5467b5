/**
 * R85 and R86 on the serve page, in Chromium: the page of `serveAgent` on 127.0.0.1, for an agent
 * whose model streams what the test sends, when the test sends it. Nothing waits on a clock: each
 * step waits for the event or the element that the one before it causes.
 */
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { first, firstValueFrom, Subject } from 'rxjs'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { z } from 'zod'
import type { ModelEvent } from '../../src/contracts/model.js'
import { type Agent, type ContentBlock, createAgent, defineTool } from '../../src/index.js'
import { type Served, serveAgent } from '../../src/web/server.js'
import { ARTIFACTS, describeBrowser, launch, watchedPage } from '../support/browser.js'
import { PNG } from '../support/mediaSession.js'

let browser: Browser
let agent: Agent | undefined
let served: Served | undefined

const text = (t: string): ModelEvent => ({ type: 'text', text: t })
const finish: ModelEvent = { type: 'finish', reason: 'stop' }

const status = (page: Page, shown: string) =>
  page.locator('[data-testid=status]', { hasText: shown }).waitFor()
const streaming = (page: Page) => page.locator('[data-testid=transcript] [data-testid=streaming]')
/** The whole chat's text: a streamed answer must be in it exactly once. */
const chatText = (page: Page) => page.locator('[data-testid=transcript]').textContent()
const occurrences = (haystack: string | null, needle: string) => (haystack ?? '').split(needle).length - 1

/**
 * An agent whose first answer streams what the test sends; its later answers are `The end.`. Its
 * `wait` tool runs until the test calls `release`.
 */
const streamedAgent = async () => {
  const stream = new Subject<ModelEvent>()
  let release = () => {}
  const wait = defineTool({
    name: 'wait',
    description: 'Waits for the test.',
    parameters: z.object({}),
    execute: () =>
      new Promise<string>((resolve) => {
        release = () => resolve('waited')
      }),
  })
  let n = 0
  agent = createAgent({ tools: [wait], model: () => (++n === 1 ? stream : [text('The end.'), finish]) })
  served = await serveAgent(agent)
  const { page, errors } = await watchedPage(browser, 1300)
  await page.goto(served.url)
  await status(page, 'idle')
  const a = agent
  /** Sends `words` as deltas and waits until the agent published the last of them. */
  const say = async (...words: string[]) => {
    const last = words[words.length - 1]
    const streamed = firstValueFrom(
      a.events$.pipe(first((e) => e.type === 'agent/stream/delta' && e.text === last)),
    )
    for (const word of words) stream.next(text(word))
    await streamed
  }
  const stepStarted = firstValueFrom(a.transcript$.pipe(first((e) => e.type === 'step/start')))
  a.followup('tell me a story')
  await stepStarted
  return { stream, page, errors, say, agent: a, release: () => release() }
}

describeBrowser('steerable serve: live text and images in a browser', () => {
  beforeAll(async () => {
    browser = await launch()
  }, 180_000)
  afterEach(async () => {
    await served?.close()
    await agent?.dispose()
    served = undefined
    agent = undefined
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('R85: the answer shows word by word while its step streams, then its durable message replaces it when the step ends: once', async () => {
    const { stream, page, errors, say, agent: a, release } = await streamedAgent()
    await say('Once ', 'upon ')
    await streaming(page).filter({ hasText: 'Once upon' }).waitFor()
    // The step has not ended (the model is still open): nothing durable holds the text yet.
    expect(a.session.events.some((e) => e.type === 'assistant/message' || e.type === 'step/end')).toBe(false)
    expect(await page.locator('[data-testid=transcript] li.assistant-message').count()).toBe(0)

    await say('a ', 'time.')
    await streaming(page).filter({ hasText: 'Once upon a time.' }).waitFor()
    await page.screenshot({ path: join(ARTIFACTS, 'serve-live-text.png'), fullPage: true })

    // The step ends with a call that runs until the test releases it: the turn goes on.
    stream.next({ type: 'tool-call', id: 'c1', name: 'wait', arguments: '{}' })
    stream.next({ type: 'finish', reason: 'tool-calls' })
    stream.complete()
    await page.locator('[data-testid=running-tool][data-call-id=c1]').waitFor()
    await page
      .locator('[data-testid=transcript] li.assistant-message', { hasText: 'Once upon a time.' })
      .waitFor()
    expect(await streaming(page).count()).toBe(0)
    expect(occurrences(await chatText(page), 'Once upon a time.')).toBe(1)
    expect(a.status).toBe('running')

    release()
    await page.locator('[data-testid=transcript] li.assistant-message', { hasText: 'The end.' }).waitFor()
    await status(page, 'idle')
    expect(await streaming(page).count()).toBe(0)
    expect(occurrences(await chatText(page), 'Once upon a time.')).toBe(1)
    expect(errors).toStrictEqual([])
  }, 120_000)

  it('R85: a page that opens while a step streams shows the text so far, then each new word', async () => {
    const { stream, page: first, say } = await streamedAgent()
    await say('Half ', 'way ')
    await streaming(first).filter({ hasText: 'Half way' }).waitFor()
    const { page: late, errors } = await watchedPage(browser, 1300)
    await late.goto(served!.url)
    await streaming(late).filter({ hasText: 'Half way' }).waitFor()
    await say('there.')
    await streaming(late).filter({ hasText: 'Half way there.' }).waitFor()
    stream.next(finish)
    stream.complete()
    await late
      .locator('[data-testid=transcript] li.assistant-message', { hasText: 'Half way there.' })
      .waitFor()
    await status(late, 'idle')
    expect(await streaming(late).count()).toBe(0)
    expect(occurrences(await chatText(late), 'Half way there.')).toBe(1)
    expect(errors).toStrictEqual([])
  }, 120_000)

  it('R85, R68: after an interrupting steer the cut text is shown once, as the durable message says: interrupted', async () => {
    const { stream, page, errors, say, agent: a } = await streamedAgent()
    await say('Once ', 'upon ')
    await streaming(page).filter({ hasText: 'Once upon' }).waitFor()
    a.steer('stop, make it short', { interrupt: true })
    const cut = page.locator('[data-testid=transcript] li.assistant-message.interrupted')
    await cut.waitFor()
    expect(await cut.locator('.text').textContent()).toBe('Once upon')
    await page.locator('[data-testid=transcript] li.assistant-message', { hasText: 'The end.' }).waitFor()
    await status(page, 'idle')
    expect(await streaming(page).count()).toBe(0)
    expect(occurrences(await chatText(page), 'Once upon')).toBe(1)
    expect(stream.observed).toBe(false)
    expect(errors).toStrictEqual([])
  }, 120_000)

  it('R86: an image block shows as a picture, a file and an image by URL as labels, and text stays text', async () => {
    agent = createAgent({ model: () => [text('Seen.'), finish] })
    served = await serveAgent(agent)
    const { page, errors } = await watchedPage(browser, 1300)
    await page.goto(served.url)
    await status(page, 'idle')
    const content: ContentBlock[] = [
      { type: 'text', text: 'look <img src=x onerror="document.title=1">' },
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
      { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=', filename: 'report.pdf' },
    ]
    agent.followup({ content, source: { kind: 'user' } })
    await page.locator('[data-testid=transcript] li.assistant-message', { hasText: 'Seen.' }).waitFor()
    const line = page.locator('[data-testid=transcript] li.user-message')
    const img = line.locator('img[data-testid=media-image]')
    await img.waitFor()
    expect(await img.count()).toBe(1)
    expect(await img.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`)
    // Decoded: the page's policy lets a data: image in (and nothing else).
    await page.waitForFunction(
      () => (document.querySelector('img[data-testid=media-image]') as HTMLImageElement)?.naturalWidth === 1,
    )
    expect(await line.locator('[data-testid=media-label]').allTextContents()).toEqual([
      '[image image/jpeg https://example.com/cat.jpg]',
      '[file report.pdf]',
    ])
    expect(await line.locator('.text').textContent()).toBe('look <img src=x onerror="document.title=1">')
    expect(await page.title()).toBe('steerable')
    expect(errors).toStrictEqual([])
  }, 120_000)
})
