import { createInterface } from 'node:readline'
import type { Agent } from '../contracts/agent.js'
import { parseCommand, runCommand } from './commands.js'
import { formatDurable, formatLive, PLAIN } from './format.js'

/**
 * Without a terminal: each input line is a command (plain text is a followup-or-steer, lines
 * starting with `/` are the same commands as in the terminal app), and the transcript is printed
 * as it is written. Resolves with the number of lines read, once input ended and the agent is idle.
 */
export const runLines = (
  agent: Agent,
  io: {
    readonly input: NodeJS.ReadableStream
    readonly output: NodeJS.WritableStream
    readonly events: boolean
  },
): Promise<number> =>
  new Promise((resolve) => {
    const write = (line: string | undefined) => {
      if (line !== undefined) io.output.write(`${line}\n`)
    }
    agent.transcript$.subscribe((event) => write(formatDurable(event, PLAIN)))
    agent.events$.subscribe((event) => write(formatLive(event, PLAIN, io.events)))
    let count = 0
    let quitting = false
    const lines = createInterface({ input: io.input, terminal: false })
    lines.on('line', (line) => {
      if (quitting) return
      count++
      const command = parseCommand(line)
      if (command.kind === 'quit') {
        quitting = true
        lines.close()
        return
      }
      write(
        command.kind === 'help'
          ? '/queue text · /steer text · /inject text · /cancel [keep] · /quit'
          : undefined,
      )
      const problem = runCommand(agent, command)
      if (problem) write(problem)
    })
    lines.on('close', () => {
      agent.whenIdle().then(() => resolve(count))
    })
  })
