import { createInterface } from 'node:readline'
import type { Agent } from '../contracts/agent.js'
import { parseCommand, runCommand } from './commands.js'
import { droppedLine, formatDurable, formatLive, PLAIN } from './format.js'
import { Receipts } from './receipts.js'

/** What a run without a terminal did: the lines it acted on, and whether a turn failed. */
export type LinesRun = { readonly lines: number; readonly failed: boolean }

/** Lets the deferred wake (a microtask) claim what the last line queued, so the next line sees it. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * Without a terminal: each input line is a command (plain text steers a running turn and is a
 * followup while idle; lines starting with `/` are the same commands as in the terminal app),
 * and the transcript is printed as it is written. Lines are taken one at a time, each after the
 * last one took effect, so piped text behaves as typed text does: `hello` starts a turn and
 * `be brief` on the next line steers it. Blank lines are skipped. `/promote N`, `/drop N` and
 * `/move N M` act on the waiting items as `/inbox` numbers them, and a receipt line says what
 * became of each message sent (`✓ ran as turn 2`, `✓ steered into 1.2`, `✗ dropped (removed)`).
 * Resolves once input ended (or `/quit`) and the agent is idle.
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
  const receipts = new Receipts(agent, write)
  agent.inbox$.subscribe((inbox) => receipts.update(inbox))
  agent.events$.subscribe((event) => {
    // `/drop` has its receipt; a cancel says at once what it dropped.
    if (event.type === 'agent/inbox/discard' && event.reason === 'cancel') write(droppedLine(event.messages))
    write(formatLive(event, PLAIN, io.events))
  })
  let lines = 0
  for await (const line of createInterface({ input: io.input, terminal: false })) {
    const command = parseCommand(line)
    if (command.kind === 'empty') continue
    lines++
    if (command.kind === 'quit') break
    const { lines: said, sent } = runCommand(agent, command)
    for (const line of said) write(line)
    if (sent) receipts.track(sent.id, sent.text)
    await settle()
  }
  await agent.whenIdle()
  await settle() // the receipts of the last outcomes
  return { lines, failed }
}
