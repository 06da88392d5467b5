/**
 * R68 and R71 on the serve page, in Chromium: the page of `serveAgent` on 127.0.0.1, for an agent
 * whose model the test drives (it streams what the test sends, when the test sends it) and whose
 * `wait` tool runs until it is cancelled. Nothing waits on a clock: each step waits for the event
 * or the element that the one before it causes.
 */
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { first, firstValueFrom, Subject } from 'rxjs'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { z } from 'zod'
import type { ModelEvent } from '../../src/contracts/model.js'
import { type Agent, createAgent, defineTool, type SessionEvent } from '../../src/index.js'
import { type Served, serveAgent } from '../../src/web/server.js'
import { ARTIFACTS, describeBrowser, launch, watchedPage } from '../support/browser.js'

let browser: Browser
let agent: Agent | undefined
let served: Served | undefined

const text = (t: string): ModelEvent => ({ type: 'text', text: t })
const finish: ModelEvent = { type: 'finish', reason: 'stop' }

const status = (page: Page, shown: string) =>
  page.locator('[data-testid=status]', { hasText: shown }).waitFor()
const prompt = async (page: Page, typed: string) => {
  await page.fill('[data-testid=prompt]', typed)
  await page.press('[data-testid=prompt]', 'Enter')
}
const ofType = <T extends SessionEvent['type']>(a: Agent, type: T) =>
  a.session.events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type)

describeBrowser('steerable serve: interrupt and cancel a tool call in a browser', () => {
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

  it('R71, R72: the running call is listed with its time; its Cancel button cancels it alone, and the chat marks its result cancelled', async () => {
    const aborted: unknown[] = []
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until cancelled.',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise<string>((resolve) =>
          ctx.signal.addEventListener('abort', () => {
            aborted.push(ctx.signal.reason)
            resolve('stopped')
          }),
        ),
    })
    let n = 0
    agent = createAgent({
      tools: [wait],
      model: () =>
        ++n === 1
          ? [
              { type: 'tool-call', id: 'c1', name: 'wait', arguments: '{}' },
              { ...finish, reason: 'tool-calls' },
            ]
          : [text('Fine, I stopped waiting.'), finish],
    })
    served = await serveAgent(agent)
    const { page, errors } = await watchedPage(browser, 1300)
    await page.goto(served.url)
    await status(page, 'idle')
    expect(await page.isHidden('[data-testid=tools-panel]')).toBe(true)

    await prompt(page, 'wait for me')
    const running = page.locator('[data-testid=running-tool][data-call-id=c1]')
    await running.waitFor()
    expect(await running.locator('[data-testid=running-tool-name]').textContent()).toBe('wait')
    expect(await running.locator('[data-testid=running-tool-elapsed]').textContent()).toMatch(/^\d+s$/)
    await page.screenshot({ path: join(ARTIFACTS, 'serve-running-tool.png'), fullPage: true })
    expect(aborted).toEqual([])

    await running.locator('[data-testid=cancel-tool]').click()
    const result = page.locator('[data-testid=transcript] li.tool-result.cancelled')
    await result.waitFor()
    expect(await result.locator('[data-testid=mark]').textContent()).toBe('cancelled')
    await page.locator('[data-testid=tools-panel]').waitFor({ state: 'hidden' })
    await page.locator('[data-testid=transcript] li', { hasText: 'Fine, I stopped waiting.' }).waitFor()
    await status(page, 'idle')
    expect(await page.locator('[data-testid=running-tool]').count()).toBe(0)
    expect(await page.textContent('#error')).toBe('')
    expect(errors).toStrictEqual([])

    expect(aborted).toHaveLength(1)
    expect(ofType(agent, 'tool/result').map((e) => e.data.result.code)).toEqual(['CANCELLED'])
    expect(ofType(agent, 'turn/end').map((e) => e.data.reason.kind)).toEqual(['completed'])
  }, 120_000)

  it('R68: Interrupt while the answer streams cuts it; the chat marks the cut answer interrupted, then the steer and the next answer', async () => {
    const stream = new Subject<ModelEvent>()
    let n = 0
    agent = createAgent({
      model: () => (++n === 1 ? stream : [text('The end.'), finish]),
    })
    served = await serveAgent(agent)
    const { page, errors } = await watchedPage(browser, 1300)
    await page.goto(served.url)
    await status(page, 'idle')

    const stepStarted = firstValueFrom(agent.transcript$.pipe(first((e) => e.type === 'step/start')))
    await prompt(page, 'tell me a long story')
    await stepStarted
    const streamed = firstValueFrom(
      agent.events$.pipe(first((e) => e.type === 'agent/stream/delta' && e.text === 'upon ')),
    )
    stream.next(text('Once '))
    stream.next(text('upon '))
    await streamed
    await status(page, 'running')
    expect(stream.observed).toBe(true)

    await page.fill('[data-testid=prompt]', 'stop, make it short')
    await page.click('[data-testid=interrupt]')
    const cut = page.locator('[data-testid=transcript] li.assistant-message.interrupted')
    await cut.waitFor()
    expect(await cut.locator('.text').textContent()).toBe('Once upon')
    expect(await cut.locator('[data-testid=mark]').textContent()).toBe('interrupted')
    await page
      .locator('[data-testid=transcript] li.steering-message', { hasText: 'stop, make it short' })
      .waitFor()
    await page.locator('[data-testid=transcript] li.assistant-message', { hasText: 'The end.' }).waitFor()
    await status(page, 'idle')
    await page.screenshot({ path: join(ARTIFACTS, 'serve-interrupted.png'), fullPage: true })
    // Only the cut answer is marked; the prompt box was emptied by the click.
    expect(await page.locator('[data-testid=transcript] [data-testid=mark]').count()).toBe(1)
    expect(await page.inputValue('[data-testid=prompt]')).toBe('')
    expect(await page.textContent('#error')).toBe('')
    expect(errors).toStrictEqual([])

    expect(stream.observed).toBe(false)
    expect(ofType(agent, 'assistant/message').map((e) => e.data.interrupted)).toEqual([true, undefined])
    expect(ofType(agent, 'steering/message').map((e) => e.data.interrupt)).toEqual([true])
  }, 120_000)
})
