import { emitKeypressEvents } from 'node:readline'
import type { Agent } from '../contracts/agent.js'
import { parseCommand, runCommand } from './commands.js'
import { COLORS, droppedLine, formatDurable, formatLive, textOf } from './format.js'
import { InboxCounts } from './inboxCounts.js'
import { LiveRegion } from './liveRegion.js'

const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'
type Key = { readonly name?: string; readonly ctrl?: boolean; readonly meta?: boolean }

/**
 * The interactive terminal app: streamed text and a status line redrawn in place, an input line
 * that steers while a turn runs. Resolves when the user quits (after `dispose()`).
 */
export const runTty = (
  agent: Agent,
  io: { readonly input: NodeJS.ReadStream; readonly output: NodeJS.WriteStream; readonly events: boolean },
): Promise<void> =>
  new Promise((resolve) => {
    const { dim, bold, cyan } = COLORS
    const region = new LiveRegion(io.output)
    const counts = new InboxCounts()
    let buffer = ''
    let partial = ''
    let position = ''
    let thinking = false
    let frame = 0
    let notice = ''
    let quitting = false

    const render = () => {
      const { queued, staged } = counts.counts
      const spin = agent.status === 'running' && thinking ? `${SPINNER[frame % SPINNER.length]} ` : ''
      const parts = [agent.status, position, `queued ${queued}`, `staged ${staged}`].filter(Boolean)
      const hint =
        agent.status === 'running' ? 'Enter steers · Tab queues · Esc cancels' : 'Enter sends · /help'
      const lines = [
        ...(partial ? [`${cyan('assistant ›')} ${partial}`] : []),
        dim(`${spin}${parts.join(' · ')}  ${notice || hint}`),
        `${bold('›')} ${buffer}`,
      ]
      region.render(lines)
    }
    const print = (line: string | undefined) => {
      if (line !== undefined) region.print(line)
    }

    agent.transcript$.subscribe((event) => {
      if (event.type === 'step/start') {
        position = `turn ${event.data.turn} step ${event.data.step}`
        thinking = true
      }
      if (event.type === 'assistant/message' || event.type === 'turn/end') partial = ''
      if (event.type === 'tool/call') thinking = true
      print(formatDurable(event, COLORS))
      render()
    })
    agent.events$.subscribe((event) => {
      counts.apply(event)
      // A cancel dropped what was waiting: say what, and put its text back in the input line
      // so it can be sent again.
      if (event.type === 'agent/inbox/discard' && !quitting) {
        notice = `${droppedLine(event.messages)} (back in the input line)`
        buffer = [...event.messages.map((m) => textOf(m.content)), buffer].filter(Boolean).join(' ')
      }
      if (event.type === 'agent/stream/delta' && event.kind === 'text') {
        partial += event.text
        thinking = false
      }
      if (event.type === 'agent/status' && event.status === 'idle') position = ''
      print(formatLive(event, COLORS, io.events))
      render()
    })
    const spinner = setInterval(() => {
      frame++
      if (agent.status === 'running') render()
    }, 100)

    const quit = () => {
      quitting = true
      clearInterval(spinner)
      io.input.off('keypress', onKey)
      if (io.input.isTTY) io.input.setRawMode(false)
      io.input.pause()
      region.erase()
      agent.dispose().then(() => {
        io.output.write(dim('bye\n'))
        resolve()
      })
    }
    const submit = (line: string) => {
      const command = parseCommand(line)
      if (command.kind === 'quit') return quit()
      if (command.kind === 'help')
        notice = '/queue text · /steer text · /inject text · /cancel [keep] · /quit'
      else notice = runCommand(agent, command) ?? ''
      render()
    }
    const onKey = (text: string | undefined, key: Key = {}) => {
      if (key.ctrl && key.name === 'd') return quit()
      if (key.ctrl && key.name === 'c') {
        if (buffer === '') return quit()
        buffer = ''
      } else if (key.name === 'return' || key.name === 'enter') {
        const line = buffer
        buffer = ''
        return submit(line)
      } else if (key.name === 'tab') {
        const line = buffer
        buffer = ''
        return submit(line.trim() ? `/queue ${line}` : '')
      } else if (key.name === 'escape') {
        return submit('/cancel')
      } else if (key.name === 'backspace') {
        buffer = buffer.slice(0, -1)
      } else if (text && !key.ctrl && !key.meta && text >= ' ') {
        buffer += text
      }
      render()
    }

    emitKeypressEvents(io.input)
    if (io.input.isTTY) io.input.setRawMode(true)
    io.input.on('keypress', onKey)
    io.input.resume()
    io.output.write(
      dim('steerable — type a prompt and press Enter; steer while it answers. /help for commands.\n'),
    )
    render()
  })
