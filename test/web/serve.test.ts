import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runView, splitServeArgs } from '../../src/cli/subcommands.js'
import { type Agent, createAgent, fileStore, InvalidInputError } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { type Served, serveAgent } from '../../src/web/server.js'
import { call } from '../support/rawHttp.js'

describe('steerable serve: who may reach it', () => {
  let agent: Agent
  let served: Served
  beforeAll(async () => {
    agent = createAgent({ model: scriptedModel(['ok']) })
    served = await serveAgent(agent)
  }, 60_000)
  afterAll(async () => {
    await served.close()
    await agent.dispose()
  })

  it('binds 127.0.0.1 and serves a page that loads nothing from elsewhere', async () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    const page = await call(served.url)
    expect(page.status).toBe(200)
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//)
    expect(page.body).toContain("default-src 'none'")
  })

  it('answers no Host but loopback (a page elsewhere cannot reach it by DNS rebinding)', async () => {
    expect((await call(served.url, { host: 'evil.example' })).status).toBe(403)
  })

  it('takes commands only as JSON, and a bad one changes nothing', async () => {
    const api = `${served.url}api/followup`
    expect((await call(api, { method: 'POST', type: 'text/plain', body: '{"text":"hi"}' })).status).toBe(415)
    const bad = await call(`${served.url}api/steer`, { method: 'POST', type: 'application/json', body: '{}' })
    expect(bad.status).toBe(400)
    expect(bad.body).toContain('text')
    expect(agent.session.events).toHaveLength(0)
    const ok = await call(api, { method: 'POST', type: 'application/json', body: '{"text":"hi"}' })
    expect(JSON.parse(ok.body).id).toMatch(/^[0-9A-Z]{26}$/)
  })

  it('an unknown command is answered 400 with the command it likely meant', async () => {
    const bad = await call(`${served.url}api/folowup`, {
      method: 'POST',
      type: 'application/json',
      body: '{}',
    })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).error).toBe(
      'POST /api/folowup: command: unknown command; did you mean followup?',
    )
  })

  it('bad flags are refused together, each saying what to pass, as an InvalidInputError', () => {
    expect(() => splitServeArgs(['--port', '99999', '--host', '0.0.0.0', '--token'])).toThrow(
      InvalidInputError,
    )
    expect(() => splitServeArgs(['--port', ' ', '--host', '0.0.0.0'])).toThrow(
      /^steerable serve: --port: expected a port from 0 to 65535 \(0 picks a free one\), got {2}; --host: 0\.0\.0\.0 lets other machines steer this agent; add --token SECRET/,
    )
    expect(() => splitServeArgs(['--port', '99999', '--token'])).toThrow(
      /^steerable serve: --port: expected a port .*got 99999; --token: expected a value$/,
    )
    expect(splitServeArgs(['--port', '0', '--model', 'm']).flags.port).toBe(0)
  })

  it('another host needs a token, and then every request carries it', async () => {
    expect(() => splitServeArgs(['--host', '0.0.0.0'])).toThrow(/--token/)
    const other = createAgent({ model: scriptedModel([]) })
    const guarded = await serveAgent(other, { token: 's3cret' })
    try {
      expect((await call(guarded.url)).status).toBe(401)
      expect((await call(`${guarded.url}?token=wrong`)).status).toBe(401)
      expect((await call(`${guarded.url}?token=s3cret`)).status).toBe(200)
    } finally {
      await guarded.close()
      await other.dispose()
    }
  })
})

describe('steerable view', () => {
  it('renders a saved session to an HTML file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'view-'))
    const log = join(dir, 'session.jsonl')
    const agent = createAgent({ model: scriptedModel(['hello <b>there</b>']), store: fileStore(log) })
    agent.followup('hi')
    await agent.whenIdle()
    await agent.dispose()
    const out = join(dir, 'page.html')
    expect(runView([log, '-o', out])).toBe(0)
    const html = readFileSync(out, 'utf8')
    expect(html).toContain('turn 1 (completed)')
    expect(html).toContain('hello &#60;b&#62;there')
  })
})
