import { emitKeypressEvents } from 'node:readline'
import type { Agent } from '../contracts/agent.js'
import { approvalQuestion, askedApproval } from './approvalPrompt.js'
import { parseCommand, runCommand } from './commands.js'
import { COLORS, cut, droppedLine, formatDurable, formatLive, textOf } from './format.js'
import { inboxLines } from './inboxList.js'
import { type Key, LineEditor } from './lineEditor.js'
import { LiveRegion } from './liveRegion.js'
import { type Edited, QueueEditor } from './queueEditor.js'
import { quitNow } from './quitNow.js'
import { Receipts } from './receipts.js'
import { RunningTools } from './runningTools.js'
import { usageText } from './usageText.js'

const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'

/** The keys, for `/help` in the terminal (the commands come from `runCommand`). */
export const KEYS_HELP = [
  'Keys: Enter sends (it steers while a turn runs) · Tab queues · Esc cancels the turn and drops what waits, putting its text back in the input line (the status line says so) · Ctrl-U clears the input line · Ctrl-D or /quit quits at once',
  'The input line edits as in a shell: Left/Right, Home/End, Ctrl-A/E, Ctrl-W deletes a word, Ctrl-K the rest of the line; with nothing queued, Up/Down walk the lines sent before',
  'Up takes the last queued item into the input line (Up again: the one before; Down: the next, past the last your line is back); Enter puts the edit back in place, an emptied line drops it; Esc cancels the edit',
  'Ctrl-P steers the item you are editing, or else the last queued one, into the running turn (while idle it runs next)',
]

/**
 * The interactive terminal app: streamed text, a status line and the numbered waiting items
 * redrawn in place, an input line that steers while a turn runs and edits queued items, and a
 * receipt for each message sent. A call that waits for approval is asked about above the status
 * line, and `y`, `n` or `n <reason>` answers it (R67). Resolves when the user quits (after
 * `quitNow`: at once, ending a running turn).
 */
export const runTty = (
  agent: Agent,
  io: {
    readonly input: NodeJS.ReadStream
    readonly output: NodeJS.WriteStream
    readonly events: boolean
    /** The session is stored: a quit keeps what waits in it (`quitNow`). */
    readonly stored?: boolean
  },
): Promise<void> =>
  new Promise((resolve) => {
    const { dim, bold, cyan, red } = COLORS
    const region = new LiveRegion(io.output)
    const editor = new QueueEditor(agent)
    const running = new RunningTools()
    // Enter on a line that is not an edit sends it (readline keeps it in the history).
    const line = new LineEditor((text) => submit(text))
    let inbox = agent.inbox
    let partial = ''
    let position = ''
    let thinking = false
    let frame = 0
    let notice = ''
    let quitting = false
    let tokens = ''

    const hint = () => {
      if (editor.id !== undefined) return 'Enter saves in place · Esc cancels the edit · Up/Down another item'
      if (askedApproval(agent))
        return 'answer the question above · other text steers (it waits) · Esc cancels'
      if (agent.status === 'paused') return 'over budget: Esc cancels the turn'
      if (agent.status !== 'running') return 'Enter sends · /help'
      if (running.size > 0) return 'Enter steers · /cancel-tool N stops tool N · Esc cancels'
      if (partial) return 'Enter steers · !text cuts the answer short · Esc cancels'
      return `Enter steers · Tab queues${inbox.queue.length > 0 ? ' · Up edits · Ctrl-P steers it in' : ''} · Esc cancels`
    }
    const render = () => {
      const spin = agent.status === 'running' && thinking ? `${SPINNER[frame % SPINNER.length]} ` : ''
      const counts = [`queued ${inbox.queue.length}`, `staged ${inbox.outbox.length}`]
      const parts = [agent.status, position, ...counts, tokens].filter(Boolean)
      const columns = io.output.columns || 80
      const list = inboxLines(inbox, { columns, limit: 8, ...(editor.id ? { editing: editor.id } : {}) })
      const prompt = editor.id === undefined ? '›' : `edit ${editor.number} ›`
      const question = approvalQuestion(agent, columns)
      region.render(
        [
          ...(partial ? [`${cyan('assistant ›')} ${partial}`] : []),
          ...running.lines(columns).map(dim),
          ...(question ? [bold(question)] : []),
          dim(`${spin}${parts.join(' · ')}  ${notice || hint()}`),
          ...list.map(dim),
          `${bold(prompt)} ${line.text}`,
        ],
        line.text.length - line.cursor,
      )
    }
    const print = (line: string | undefined) => {
      if (line !== undefined && !quitting) region.print(line)
    }
    const apply = (edited: Edited | undefined) => {
      if (!edited) return
      line.set(edited.buffer)
      notice = edited.notice ?? ''
    }
    // Before anything draws the live region: the welcome is scrollback, the status line drawn once.
    io.output.write(
      dim('steerable — type a prompt and press Enter; steer while it answers. /help for commands.\n'),
    )
    const receipts = new Receipts(agent, (line, ok) => print(ok ? dim(line) : red(line)))

    agent.transcript$.subscribe((event) => {
      if (event.type === 'step/start') {
        position = `turn ${event.data.turn} step ${event.data.step}`
        thinking = true
      }
      // A step that ends with its streamed text unwritten was cut (a cancel): the text stays, marked.
      if ((event.type === 'step/end' || event.type === 'turn/end') && partial)
        print(`${cyan('assistant ›')} ${partial.trim()}${cut(COLORS)}`)
      if (event.type === 'assistant/message' || event.type === 'step/end' || event.type === 'turn/end')
        partial = ''
      if (event.type === 'tool/call') thinking = true
      print(formatDurable(event, COLORS))
      render()
    })
    agent.usage$.subscribe((usage) => {
      tokens = usageText(usage)
      render()
    })
    agent.inbox$.subscribe((next) => {
      inbox = next
      receipts.update(next)
      apply(editor.check(next, line.text))
      render()
    })
    agent.events$.subscribe((event) => {
      // A cancel (Esc) dropped what was waiting: its text goes back in the input line so that a
      // message typed ahead is not lost (`/drop` and Enter on an emptied edit meant to drop), and
      // the status line says so until the next command, with how to send it or clear it.
      if (event.type === 'agent/inbox/discard' && event.reason === 'cancel' && !quitting) {
        const back = event.messages.map((m) => textOf(m.content)).filter(Boolean)
        const what = back.length === 1 ? 'its text is' : 'their text is'
        notice = `${droppedLine(event.messages)} — ${back.length > 0 ? `${what} back in the input line: Enter sends it again, Ctrl-U clears it` : 'nothing to put back'}`
        line.set([...back, line.text].filter(Boolean).join(' '))
      }
      if (event.type === 'agent/stream/delta' && event.kind === 'text') {
        partial += event.text
        thinking = false
      }
      if (event.type === 'agent/status' && event.status === 'idle') position = ''
      running.see(event)
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
      line.close()
      if (io.input.isTTY) io.input.setRawMode(false)
      io.input.pause()
      region.erase()
      // Now, not after the running turn: see quitNow for what becomes of what waits.
      quitNow(agent, io.stored === true).then((said) => {
        io.output.write(dim(`${said ? `${said}\n` : ''}bye\n`))
        resolve()
      })
    }
    const submit = (line: string) => {
      const command = parseCommand(line, askedApproval(agent) !== undefined)
      if (command.kind === 'quit') return quit()
      notice = ''
      const { lines, sent, later } = runCommand(agent, command, { running })
      // Help and the list go to the scrollback; a refusal ("no item 5") stays in the status line,
      // and so does what the command itself caused (a cancel's "dropped …, back in the line").
      const listing = command.kind === 'help' || command.kind === 'inbox'
      for (const said of listing ? [...lines, ...(command.kind === 'help' ? KEYS_HELP : [])] : [])
        print(dim(said))
      notice = listing ? '' : [notice, ...lines].filter(Boolean).join(' · ')
      if (sent) receipts.track(sent.id, sent.text)
      void later?.then((line) => {
        if (line === undefined || quitting) return
        notice = line
        render()
      })
      render()
    }
    const take = (): string => {
      const text = line.text
      line.set('')
      return text
    }
    const onKey = (text: string | undefined, key: Key = {}) => {
      const editing = editor.id !== undefined
      if (key.ctrl && key.name === 'd') return quit()
      if (key.ctrl && key.name === 'c') {
        if (line.text === '' && !editing) return quit()
        editor.cancel()
        line.set('')
      } else if (key.ctrl && key.name === 'u') {
        // As in a shell: the input line is cleared (an edit stays open; Enter on it then drops the item).
        line.set('')
        notice = ''
      } else if (key.ctrl && key.name === 'p') {
        apply(editor.promote(line.text))
      } else if ((key.name === 'up' || key.name === 'down') && (editing || inbox.queue.length > 0)) {
        apply(key.name === 'up' ? editor.up(line.text) : editor.down(line.text))
      } else if (editing && ['return', 'enter', 'tab'].includes(key.name ?? '')) {
        apply(editor.save(line.text))
      } else if (editing && key.name === 'escape') {
        apply(editor.cancel())
      } else if (key.name === 'tab') {
        const queued = take()
        return submit(queued.trim() ? `/queue ${queued}` : '')
      } else if (key.name === 'escape') {
        return submit('/cancel')
      } else {
        // Everything else edits the line, as readline does in a shell; Enter sends it.
        line.key(text, key)
      }
      render()
    }

    emitKeypressEvents(io.input)
    if (io.input.isTTY) io.input.setRawMode(true)
    io.input.on('keypress', onKey)
    io.input.resume()
    render()
  })
