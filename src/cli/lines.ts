import { createInterface } from 'node:readline'
import type { Agent } from '../contracts/agent.js'
import { parseCommand, runCommand } from './commands.js'
import { droppedLine, formatDurable, formatLive, PLAIN } from './format.js'

/** What a run without a terminal did: the lines it acted on, and whether a turn failed. */
export type LinesRun = { readonly lines: number; readonly failed: boolean }

/** Lets the deferred wake (a microtask) claim what the last line queued, so the next line sees it. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * Without a terminal: each input line is a command (plain text steers a running turn and is a
 * followup while idle; lines starting with `/` are the same commands as in the terminal app),
 * and the transcript is printed as it is written. Lines are taken one at a time, each after the
 * last one took effect, so piped text behaves as typed text does: `hello` starts a turn and
 * `be brief` on the next line steers it. Blank lines are skipped. Resolves once input ended (or
 * `/quit`) and the agent is idle.
 */
export const runLines = async (
  agent: Agent,
  io: {
    readonly input: NodeJS.ReadableStream
    readonly output: NodeJS.WritableStream
    readonly events: boolean
  },
): Promise<LinesRun> => {
  const write = (line: string | undefined) => {
    if (line !== undefined) io.output.write(`${line}\n`)
  }
  let failed = false
  agent.transcript$.subscribe((event) => {
    if (event.type === 'turn/end' && event.data.reason.kind === 'error') failed = true
    write(formatDurable(event, PLAIN))
  })
  agent.events$.subscribe((event) => {
    if (event.type === 'agent/inbox/discard') write(droppedLine(event.messages))
    write(formatLive(event, PLAIN, io.events))
  })
  let lines = 0
  for await (const line of createInterface({ input: io.input, terminal: false })) {
    const command = parseCommand(line)
    if (command.kind === 'empty') continue
    lines++
    if (command.kind === 'quit') break
    if (command.kind === 'help') write('/queue text · /steer text · /inject text · /cancel [keep] · /quit')
    write(runCommand(agent, command))
    await settle()
  }
  await agent.whenIdle()
  return { lines, failed }
}
