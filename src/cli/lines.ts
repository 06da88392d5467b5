import { createInterface } from 'node:readline'
import { distinctUntilChanged, filter, map, take } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import { approvalQuestion, askedApproval, parseAnswer } from './approvalPrompt.js'
import { parseCommand, runCommand } from './commands.js'
import { droppedLine, formatDurable, formatLive, PLAIN } from './format.js'
import { Receipts } from './receipts.js'
import { RunningTools } from './runningTools.js'

/**
 * What a run without a terminal did: the lines it acted on, whether a turn failed, and whether it
 * ended on `/quit` (a turn may still run then: the caller ends it with `quitNow`).
 */
export type LinesRun = { readonly lines: number; readonly failed: boolean; readonly quit: boolean }

/** Lets the deferred wake (a microtask) claim what the last line queued, so the next line sees it. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** Resolves once the agent is idle, or paused for a person (`whenIdle` alone waits past a pause). */
const idleOrPaused = (agent: Agent): Promise<void> =>
  new Promise((resolve) => {
    const paused = agent.status$.pipe(
      filter((status) => status === 'paused'),
      take(1),
    )
    const subscription = paused.subscribe(() => resolve())
    agent.whenIdle().then(() => {
      subscription.unsubscribe()
      resolve()
    })
  })

/** What to say when input ends on a paused turn: it is left paused, as `dispose()` leaves it (R64). */
const pausedAtEnd = (agent: Agent): string | undefined => {
  if (agent.status !== 'paused') return undefined
  const asked = askedApproval(agent)
  const what = asked ? `${asked.name} waits for approval` : 'the turn is paused on its budget'
  return `input ended while ${what}; the turn stays paused (with --session it resumes paused on the next start)`
}

/**
 * Without a terminal: each input line is a command (plain text steers a running turn and is a
 * followup while idle; lines starting with `/` are the same commands as in the terminal app),
 * and the transcript is printed as it is written. Lines are taken one at a time, each after the
 * last one took effect, so piped text behaves as typed text does: `hello` starts a turn and
 * `be brief` on the next line steers it. Blank lines are skipped. `/promote N`, `/drop N` and
 * `/move N M` act on the waiting items as `/inbox` numbers them, and a receipt line says what
 * became of each message sent (`✓ ran as turn 2`, `✓ steered into 1.2`, `✗ dropped (removed)`).
 * When a tool call waits for approval, `y`, `n` and `n <reason>` answer it (R67); such a line read
 * while the turn still runs waits until the turn pauses or ends, as a person would wait for the
 * question. A `/rollback N` or `/compact N` read while a turn runs waits for it to end too. Resolves once input
 * ended and the agent is idle, or paused; on `/quit` at once, whatever runs or waits, having closed
 * the input (a paused pipe that its writer keeps open would keep the process alive).
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
  // `/cancel-tool N` numbers the running calls as the terminal app lists them.
  const running = new RunningTools()
  agent.inbox$.subscribe((inbox) => receipts.update(inbox))
  agent.events$.subscribe((event) => {
    // `/drop` has its receipt; a cancel says at once what it dropped.
    if (event.type === 'agent/inbox/discard' && event.reason === 'cancel') write(droppedLine(event.messages))
    running.see(event)
    write(formatLive(event, PLAIN, io.events))
  })
  // Each call asked about once, when it becomes the one `y` and `n` answer.
  agent.approvals$
    .pipe(
      map(() => askedApproval(agent)?.callId),
      distinctUntilChanged(),
      filter((callId) => callId !== undefined),
    )
    .subscribe(() => write(approvalQuestion(agent, 200)))
  let lines = 0
  for await (const line of createInterface({ input: io.input, terminal: false })) {
    if (parseAnswer(line) && agent.status === 'running') await idleOrPaused(agent)
    const command = parseCommand(line, askedApproval(agent) !== undefined)
    if (command.kind === 'empty') continue
    // A script undoes or compacts turns once they ran, as a person waits for the answers first.
    if ((command.kind === 'rollback' || command.kind === 'compact') && agent.status === 'running')
      await idleOrPaused(agent)
    lines++
    if (command.kind === 'quit') {
      ;(io.input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.()
      return { lines, failed, quit: true }
    }
    const { lines: said, sent, later } = runCommand(agent, command, { running })
    for (const line of said) write(line)
    // A script's next line comes once a compaction ended, as its undo waits for the turn.
    const ended = await later
    if (ended !== undefined) write(ended)
    if (sent) receipts.track(sent.id, sent.text)
    await settle()
  }
  await idleOrPaused(agent)
  write(pausedAtEnd(agent))
  await settle() // the receipts of the last outcomes
  return { lines, failed, quit: false }
}
