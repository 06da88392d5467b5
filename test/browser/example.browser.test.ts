/**
 * R84 in Chromium: the browser example (examples/browser/) bundled for the browser as the package
 * builds it, its page served with its module and the OpenAI-compatible API from one server on
 * 127.0.0.1 (so the page's `fetch` needs no CORS). The model's first answer streams only what the
 * test writes, when it writes it; nothing waits on a clock: each step waits for the element or
 * the request that the one before it causes.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { ARTIFACTS, describeBrowser, launch, watchedPage } from '../support/browser.js'
import { bundleForBrowser } from '../support/bundleForBrowser.js'
import { heldStream } from '../support/heldStream.js'
import {
  answer,
  chunk,
  event,
  type Handler,
  inTurn,
  type Received,
  sseHead,
} from '../support/openaiServer.js'

let browser: Browser
let server: Server | undefined

/** The example's page and module, and `model` answering the chat requests, on one origin. */
const servePage = async (module: string, model: Handler): Promise<{ url: string; received: Received[] }> => {
  const html = readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'browser', 'index.html'))
  const received: Received[] = []
  server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/' || req.url === '/main.js')) {
      const page = req.url === '/'
      res.writeHead(200, { 'content-type': page ? 'text/html' : 'text/javascript' })
      res.end(page ? html : module)
      return
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      const request = { method: req.method, url: req.url, headers: req.headers, body }
      received.push(request)
      model(res, request, received.length - 1)
    })
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, received }
}

const submit = async (page: Page, field: string, text: string) => {
  await page.fill(`[data-testid=${field}]`, text)
  await page.press(`[data-testid=${field}]`, 'Enter')
}
const step = (page: Page, n: number) => page.locator('[data-testid=steps] li').nth(n)

describeBrowser('the browser example: an agent in a page', () => {
  beforeAll(async () => {
    browser = await launch()
  }, 180_000)
  afterEach(async () => {
    const open = server
    server = undefined
    if (!open) return
    open.closeAllConnections()
    await new Promise((resolve) => open.close(resolve))
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('R84: streams the answer word by word, a steer cuts it, and the page shows the next answer and the outcome', async () => {
    const bundle = await bundleForBrowser({ file: 'examples/browser/main.ts' })
    expect(bundle.warnings).toEqual([])
    const first = heldStream(sseHead)
    const { url, received } = await servePage(bundle.code, inTurn(first.handler, answer('The end.')))
    const { page, errors } = await watchedPage(browser)
    await page.goto(url)
    await page.locator('[data-testid=status]', { hasText: 'idle' }).waitFor()

    await submit(page, 'prompt', 'Tell me a long story')
    await first.opened
    first.write(event(chunk({ role: 'assistant', content: 'Once ' })))
    await step(page, 0)
      .filter({ hasText: /^Once $/ })
      .waitFor()
    first.write(event(chunk({ content: 'upon a time' })))
    await step(page, 0)
      .filter({ hasText: /^Once upon a time$/ })
      .waitFor()
    await page.locator('[data-testid=status]', { hasText: 'running' }).waitFor()

    await submit(page, 'steer', 'Make it short')
    expect((await first.closed).endedByServer).toBe(false)
    await step(page, 1)
      .filter({ hasText: /^The end\.$/ })
      .waitFor()
    const outcome = page.locator('[data-testid=outcome]')
    await outcome.filter({ hasText: 'Turn 1 ended: completed.' }).waitFor()
    await outcome
      .filter({ hasText: 'The steer was delivered as steering in turn 1, cutting step 1.' })
      .waitFor()
    expect(await step(page, 0).getAttribute('class')).toBe('interrupted')
    await page.locator('[data-testid=status]', { hasText: 'idle' }).waitFor()
    await page.screenshot({ path: join(ARTIFACTS, 'browser-example.png'), fullPage: true })

    const second = received[1]?.body as { messages: { role: string; content: unknown }[] }
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(JSON.stringify(second.messages.at(-1))).toContain('Make it short')
    expect(await page.textContent('[data-testid=error]')).toBe('')
    expect(errors).toStrictEqual([])
  }, 120_000)

  it("R84: fileStore from the browser build throws in the page, naming 'steerable/node' and memoryStore()", async () => {
    const bundle = await bundleForBrowser({
      contents: `import { fileStore } from 'steerable'
try { fileStore('session.jsonl') } catch (error) { document.body.dataset.error = String(error) }`,
    })
    expect(bundle.inputs.filter((f) => f.startsWith('node:'))).toEqual([])
    const { page, errors } = await watchedPage(browser)
    await page.setContent('<!doctype html><body></body>')
    await page.addScriptTag({ type: 'module', content: bundle.code })
    await page.locator('body[data-error]').waitFor({ state: 'attached' })
    expect(await page.getAttribute('body', 'data-error')).toBe(
      `Error: fileStore("session.jsonl") needs Node: import it from 'steerable/node' in a Node process; ` +
        'in the browser use memoryStore() or a store of your own',
    )
    expect(errors).toStrictEqual([])
  }, 60_000)
})
