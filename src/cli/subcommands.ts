import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import type { Agent } from '../contracts/agent.js'
import { checkInput } from '../messages/checkInput.js'
import { readSessionFile, renderTimeline } from '../timeline.js'
import { checkServeOptionsIn, serveAgent } from '../web/server.js'

export const VIEW_USAGE = `Usage: steerable view SESSION.jsonl [-o PAGE.html]

Renders a saved session (a file store's log, and its inbox journal beside it) as one
self-contained HTML page: the timeline of turns, steps, tools, the transcript and what waited.
Without -o the page is written to SESSION.jsonl.html.`

export const SERVE_USAGE = `Usage: steerable serve [options]   (or: steerable --web [options])

Serves a page to chat with the agent, steer it, edit what waits and watch its timeline live.
Takes the options of steerable (--session, --demo-speed, --model …) and:
  --port N        the port (default 4477; 0 picks a free one)
  --host HOST     default 127.0.0.1 (this machine only); any other host needs --token
  --token SECRET  required on every request: open the page as http://HOST:PORT/?token=SECRET`

/** `steerable view`: returns the exit code. */
export const runView = (argv: readonly string[]): number => {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  })
  if (values.help || positionals.length !== 1) {
    ;(values.help ? process.stdout : process.stderr).write(`${VIEW_USAGE}\n`)
    return values.help ? 0 : 2
  }
  const path = positionals[0]!
  const { record, warnings } = readSessionFile(path)
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`)
  const output = values.output ?? `${path}.html`
  writeFileSync(output, renderTimeline(record, { title: `steerable session ${path}` }))
  process.stdout.write(`wrote ${output} (${record.entries.length} events)\n`)
  return 0
}

export type ServeFlags = { readonly port: number; readonly host: string; readonly token?: string }

/**
 * Takes `--port`, `--host` and `--token` out of `argv`; the rest are the chat's options. One
 * `InvalidInputError` lists every bad flag.
 */
export const splitServeArgs = (argv: readonly string[]): { flags: ServeFlags; rest: string[] } => {
  const rest: string[] = []
  const flags: { port: number; host: string; token?: string } = { port: 4477, host: '127.0.0.1' }
  checkInput('steerable serve', (check) => {
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i]!
      const [name, inline] = arg.startsWith('--') ? (arg.split(/=(.*)/s) as [string, string?]) : [arg]
      if (name !== '--port' && name !== '--host' && name !== '--token') {
        if (arg !== '--web') rest.push(arg)
        continue
      }
      const value = inline ?? argv[++i]
      if (value === undefined) check.add([name], 'expected a value')
      else if (name === '--port') {
        const port = /^\d+$/.test(value) ? Number(value) : Number.NaN
        if (port <= 65535) flags.port = port
        else check.add([name], `expected a port from 0 to 65535 (0 picks a free one), got ${value}`)
      } else if (name === '--host') flags.host = value
      else flags.token = value
    }
    checkServeOptionsIn(check, flags)
  })
  return { flags, rest }
}

/** Serves `agent` until SIGINT or SIGTERM, then disposes it (the session is flushed and closed). */
export const runServe = async (agent: Agent, flags: ServeFlags): Promise<number> => {
  const served = await serveAgent(agent, flags)
  const url = flags.token ? `${served.url}?token=${encodeURIComponent(flags.token)}` : served.url
  process.stdout.write(`steerable: serving ${url} (Ctrl-C stops)\n`)
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await served.close()
  await agent.dispose()
  return 0
}
