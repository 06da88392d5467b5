import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { deferred } from '../support/agents.js'
import {
  anthropicHead,
  blockEvents,
  message,
  messageEnd,
  messageStart,
  textBlock,
} from '../support/anthropicServer.js'
import { runChild, startChild } from '../support/childProcesses.js'
import { answer, closeServers, inTurn, serve } from '../support/openaiServer.js'
import { until } from '../support/until.js'

/**
 * `steerable --provider …`: the terminal app on an AI SDK provider package, loaded with a dynamic
 * import. The command is bundled into a folder inside node_modules, so that the import resolves
 * the provider package the way it does in an app that installed it.
 */
const cache = join('node_modules', '.cache')
mkdirSync(cache, { recursive: true })
const root = mkdtempSync(join(cache, 'steerable-cli-provider-'))
const cli = join(root, 'cli.mjs')

beforeAll(async () => {
  await build({
    entryPoints: ['src/cli.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: cli,
    logLevel: 'silent',
    packages: 'external',
  })
}, 60_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))
afterEach(closeServers)

/** The process environment without any key or endpoint the machine may have set. */
const cleanEnv = (extra: Record<string, string>) => {
  const env: Record<string, string | undefined> = { ...process.env, ...extra }
  for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'MISTRAL_API_KEY'])
    if (!(name in extra)) delete env[name]
  return env
}

const runSync = (args: readonly string[], env: Record<string, string> = {}) =>
  runChild(process.execPath, [cli, ...args], { deadlineMs: 60_000, env: cleanEnv(env) })

describe('steerable --provider', () => {
  it('steers a Claude turn: @ai-sdk/anthropic with the key from ANTHROPIC_API_KEY, against a local Messages server', async () => {
    const release = deferred()
    const server = await serve(
      inTurn(
        (res) => {
          anthropicHead(res)
          res.write(messageStart())
          const [start, delta, stop] = blockEvents(textBlock('Steering is a long story'), 0)
          res.write(`${start}${delta}`)
          void release.promise.then(() => {
            res.end([stop, ...messageEnd('end_turn')].join(''))
          })
        },
        message('end_turn', textBlock('A correction mid-turn.')),
      ),
    )
    const child = startChild(
      process.execPath,
      [cli, '--provider', 'anthropic', '--model', 'claude-test', '--base-url', server.baseURL, '--events'],
      { deadlineMs: 60_000, env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-cli-test-key' }) },
    )
    child.write('Explain steering.\n')
    await until(() => {
      if (!child.running) throw new Error(`the app exited early:\n${child.lines.join('\n')}`)
      return server.received.length === 1
    }, 'the first request at the local server')
    // The answer is streaming and held open: the next line steers the running turn.
    child.end('Be brief.\n')
    await child.line(/enqueue\(Be brief\.,steering\)/)
    release.resolve()
    const { code, stdout } = await child.exit
    expect(code).toBe(0)
    expect(stdout).toContain('assistant › Steering is a long story')
    expect(stdout).toContain('you (steer) › Be brief.')
    expect(stdout).toContain('assistant › A correction mid-turn.')
    expect(server.received).toHaveLength(2)
    expect(server.received[0]?.headers['x-api-key']).toBe('sk-ant-cli-test-key')
    expect((server.received[1]?.body as { messages: unknown[] } | undefined)?.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Be brief.' }],
    })
  }, 60_000)

  it('--provider openai --base-url URL talks Chat Completions to an OpenAI-compatible server, with no package and no key needed', async () => {
    const server = await serve(answer('Hello from a local server.'))
    const child = startChild(
      process.execPath,
      [cli, '--provider', 'openai', '--model', 'local-model', '--base-url', server.baseURL],
      { deadlineMs: 60_000, env: cleanEnv({}) },
    )
    child.end('Hi.\n')
    const { code, output } = await child.exit
    expect(code, output).toBe(0)
    expect(output).toContain('assistant › Hello from a local server.')
    expect(server.received.map((r) => r.url)).toEqual(['/v1/chat/completions'])
    expect(server.received[0]?.body).toMatchObject({ model: 'local-model', stream: true })
    expect(server.received[0]?.headers.authorization).toBeUndefined()
  }, 60_000)

  it('says what to do, exit code 2: a package not installed, no model, no key, an unknown provider', () => {
    const missing = runSync(['--provider', 'mistral', '--model', 'mistral-large-latest'], {
      MISTRAL_API_KEY: 'x',
    })
    expect(missing.status).toBe(2)
    expect(missing.stderr).toBe(
      '--provider mistral needs the package @ai-sdk/mistral, which is not installed: npm install @ai-sdk/mistral\n',
    )
    const noModel = runSync(['--provider', 'anthropic'], { ANTHROPIC_API_KEY: 'x' })
    expect(noModel.status).toBe(2)
    expect(noModel.stderr).toContain('--provider anthropic: name the model with --model, for example')
    const noKey = runSync(['--provider', 'anthropic', '--model', 'claude-test'])
    expect(noKey.status).toBe(2)
    expect(noKey.stderr).toContain('--provider anthropic: set ANTHROPIC_API_KEY (or pass --api-key)')
    const unknown = runSync(['--provider', 'toString', '--model', 'm'])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain(
      '--provider toString: not one this app knows; use one of anthropic, openai,',
    )
  }, 60_000)
})
