/**
 * `steerable serve` as a real process on 127.0.0.1, given requests a hostile client sends: each is
 * refused with a status, and the process goes on serving (it used to exit on both).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call } from '../support/rawHttp.js'
import { buildServeCommand, type ServeProcess, startServe } from '../support/serveProcess.js'

const root = mkdtempSync(join(tmpdir(), 'steerable-serve-hostile-'))
const TOKEN = 's3cret'
let served: ServeProcess

beforeAll(async () => {
  served = await startServe(await buildServeCommand(root), ['--token', TOKEN])
}, 120_000)
afterAll(async () => {
  await served?.child.kill()
  rmSync(root, { recursive: true, force: true })
})

/** The process still answers: the page, with the right token. */
const stillServes = async () => {
  expect((await call(`${served.url}?token=${TOKEN}`)).status).toBe(200)
  expect(served.child.running).toBe(true)
}

describe('steerable serve: hostile requests', () => {
  it('a request target the URL parser refuses (GET //) is answered 400, before the token check', async () => {
    const reply = await call(served.url, { path: '//' })
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).error).toMatch(/request target/)
    expect((await call(served.url, { path: '//evil.example/' })).status).toBe(400)
    await stillServes()
  }, 60_000)

  it('a token guess of the right length with a non-ASCII character is answered 401', async () => {
    // Six characters like the token, seven bytes in UTF-8: a compare of the raw bytes throws.
    const guess = 's3cre\u00e9'
    expect(guess.length).toBe(TOKEN.length)
    expect((await call(`${served.url}?token=${encodeURIComponent(guess)}`)).status).toBe(401)
    const header = { authorization: `Bearer ${Buffer.from(guess, 'utf8').toString('latin1')}` }
    expect((await call(served.url, { headers: header })).status).toBe(401)
    expect((await call(`${served.url}?token=${'\u{1F600}'.repeat(3)}`)).status).toBe(401)
    await stillServes()
  }, 60_000)
})
