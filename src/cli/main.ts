import type { Agent } from '../contracts/agent.js'
import type { ModelAdapter } from '../contracts/model.js'
import { createAgent, fileStore, type ToolDefinition } from '../index.js'
import { openaiModel } from '../openai.js'
import { type CliOptions, parseCliArgs, USAGE } from './args.js'
import { runAttach } from './attachCommand.js'
import { type DatabaseSession, openDatabaseSession } from './databaseSession.js'
import { demoModel } from './demoModel.js'
import { type DemoTimings, demoTools } from './demoTools.js'
import { runFork } from './forkCommand.js'
import { runLines } from './lines.js'
import { runMigrate } from './migrateCommand.js'
import { ProviderSetupError, providerModel } from './provider.js'
import { quitNow } from './quitNow.js'
import { runScriptedDemo } from './scriptedDemo.js'
import { runServe, runView, SERVE_USAGE, type ServeFlags, splitServeArgs } from './subcommands.js'
import { runTty } from './tty.js'

const numberFrom = (value: string | undefined, fallback: number) => {
  const n = Number(value)
  return value !== undefined && Number.isFinite(n) && n >= 0 ? n : fallback
}

/**
 * The demo model is the default; an endpoint or a model name switches to a real one, and
 * `--provider` to the model of an AI SDK provider package.
 */
const chooseModel = async (
  options: CliOptions,
  timings: DemoTimings,
  env: NodeJS.ProcessEnv,
): Promise<{ model: ModelAdapter; tools: ToolDefinition[] }> => {
  if (options.provider !== undefined)
    return { model: await providerModel({ ...options, provider: options.provider }, env), tools: [] }
  if (options.baseURL === undefined && options.model === undefined) {
    return { model: demoModel(timings), tools: demoTools(timings) }
  }
  const model = openaiModel({
    model: options.model ?? 'gpt-4o-mini',
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  })
  return { model, tools: [] }
}

/** The `steerable` command. Returns the exit code. */
export const main = async (command: readonly string[], env: NodeJS.ProcessEnv): Promise<number> => {
  if (command[0] === 'view') return runView(command.slice(1))
  if (command[0] === 'migrate') return runMigrate(command.slice(1), env, process.stdout, process.stderr)
  if (command[0] === 'attach') return runAttach(command.slice(1), env, process)
  if (command[0] === 'fork') return runFork(command.slice(1), process.stdout, process.stderr)
  const web = command[0] === 'serve' || command.includes('--web')
  const usage = web ? SERVE_USAGE : USAGE
  let options: CliOptions
  let serve: ServeFlags | undefined
  try {
    const split = web ? splitServeArgs(command[0] === 'serve' ? command.slice(1) : command) : undefined
    serve = split?.flags
    options = parseCliArgs(split?.rest ?? command, env)
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}\n`)
    return 2
  }
  if (options.help) {
    process.stdout.write(`${usage}\n`)
    return 0
  }
  // --demo-speed 0.5 gives a person twice the time to type a steer; the tests go faster.
  const timings = {
    wordMs: numberFrom(env.STEERABLE_DEMO_WORD_MS, 70) / options.demoSpeed,
    toolMs: numberFrom(env.STEERABLE_DEMO_TOOL_MS, 900) / options.demoSpeed,
  }
  let chosen: Awaited<ReturnType<typeof chooseModel>>
  try {
    chosen = await chooseModel(options, timings, env)
  } catch (error) {
    if (!(error instanceof ProviderSetupError)) throw error
    process.stderr.write(`${error.message}\n`)
    return 2
  }
  const { model, tools } = chosen
  let database: DatabaseSession | undefined
  if (options.databaseUrl !== undefined && options.session) {
    const opened = await openDatabaseSession(options.databaseUrl, options.session)
    if ('code' in opened) {
      process.stderr.write(opened.message)
      return opened.code
    }
    database = opened
  }
  const file = !database && options.session ? fileStore(options.session) : undefined
  for (const warning of file?.warnings ?? []) process.stderr.write(`warning: ${warning}\n`)
  const store = database?.store ?? file
  const agent = createAgent({
    model,
    tools,
    instructions: 'You are a helpful, concise assistant.',
    // The app shows each agent/error and failed turn in its own lines (format.ts): the default
    // report on console.error would only draw over the screen (R118).
    onError: false,
    ...(store ? { store } : {}),
  })
  if (store && agent.session.events.length > 0) {
    const turns = agent.session.events.filter((e) => e.type === 'turn/start').length
    process.stdout.write(
      `resumed ${options.session}: ${agent.session.events.length} events, ${turns} turns\n`,
    )
  }
  if (database) {
    database.serve(agent, (line) => process.stderr.write(`warning: ${line}\n`))
    process.stdout.write(
      `driving ${options.session} on PostgreSQL (follow it: steerable attach ${options.session})\n`,
    )
  }
  try {
    return await run(agent, { ...options, stored: store !== undefined }, serve)
  } finally {
    await database?.close()
  }
}

/** Runs the app on `agent` until the user quits (or input ends); the agent is disposed after. */
const run = async (
  agent: Agent,
  options: CliOptions & { readonly stored: boolean },
  serve: ServeFlags | undefined,
): Promise<number> => {
  if (serve) return runServe(agent, serve)
  const io = { input: process.stdin, output: process.stdout, events: options.events, stored: options.stored }
  if (process.stdin.isTTY && process.stdout.isTTY) {
    await runTty(agent, io)
    return 0
  }
  const { lines, failed, quit } = await runLines(agent, io)
  if (quit) {
    const said = await quitNow(agent, options.stored)
    if (said) process.stdout.write(`${said}\n`)
  }
  await agent.dispose()
  // `npm start` with no terminal and no input (CI, a pipe from /dev/null): the scripted demo.
  if (lines === 0 && !options.session) await runScriptedDemo()
  // A script that pipes prompts in learns that a turn failed (a model error, a failing hook).
  if (failed) process.stderr.write('steerable: a turn ended with an error (see above)\n')
  return failed ? 1 : 0
}
