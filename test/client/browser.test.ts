import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeBrowser, launch, watchedPage } from '../support/browser.js'

/**
 * steerable/client in Chromium against a real local server whose first event stream drops after
 * one event: the client reconnects by itself and says `open` on each connection.
 */
const APP = `
import { fromEventSource } from './src/client.ts'
const seen = (window.seen = [])
fromEventSource('/sse', { events: ['tick'], retryDelay: 100 }).subscribe((e) =>
  seen.push(e.type === 'open' ? 'open' : e.type + ':' + e.data.n))
`

let server: Server
let browser: Browser
let url = ''

describeBrowser('steerable/client in a browser', () => {
  beforeAll(async () => {
    const out = await build({
      stdin: { contents: APP, resolveDir: process.cwd(), loader: 'ts' },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      logLevel: 'silent',
    })
    const script = out.outputFiles[0]!.text
    let connections = 0
    server = createServer((req, res) => {
      if (req.url === '/sse') {
        connections++
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write(`event: tick\ndata: {"n":${connections}}\n\n`)
        // The first connection drops as a network failure would.
        if (connections === 1) setTimeout(() => res.destroy(), 50)
        return
      }
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(`<!doctype html><script>${script}</script>`)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    browser = await launch()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    server?.closeAllConnections()
    server?.close()
  })

  it('reconnects after the stream drops, with an open event for each connection', async () => {
    const { page } = await watchedPage(browser)
    await page.goto(url)
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen.slice(0, 4)), {
        timeout: 60_000,
      })
      .toStrictEqual(['open', 'tick:1', 'open', 'tick:2'])
  }, 120_000)
})
