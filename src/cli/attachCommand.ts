import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import type { AgentMessageId } from '../contracts/messages.js'
import { errorText } from '../messages/errorText.js'
import { connectSessions, openPostgresSession } from '../postgres.js'
import { answerCommand, promptApprovals, sendDecision } from './attachApprovals.js'
import { sendRollback, sendToolCancel } from './attachToolCalls.js'
import { parseCommand } from './commands.js'
import { COLORS, PLAIN } from './format.js'
import { oneLine } from './inboxList.js'
import { liveView } from './liveView.js'
import { loadPg, pgMissing, poolFor } from './loadPg.js'
import { SteerReaders } from './receipts.js'

export const ATTACH_USAGE = `Usage: steerable attach NAME [--database-url URL] [--new]

Follows a session on PostgreSQL that another process drives (steerable --database-url URL
--session NAME, or a worker) and sends into it: the transcript so far, then each event as it
commits, with the owner's live status (and its streamed text in a terminal). Needs the pg
package (npm install pg).

What you type: plain text steers the running turn, and is a followup while the session is idle
(the owner routes it by its own window when it applies it); !text steers and cuts the answer the
model is writing; /followup text (or /queue text) queues a followup; /steer text; /inject text
adds context; /cancel cancels the running turn and discards what waits (/cancel keep keeps it;
with no owner it applies to the stored inbox); /cancel-tool ID cancels one running tool call (each
call the owner starts is shown with its ID); while a tool call waits for approval, y
lets it run and n (or n reason) refuses it, as where the session runs; /approve ID and /deny ID
[reason] decide any call that waits (each is shown with its ID); /rollback [N] undoes
the last N turns (1 without N) once the owner is idle; /help; /quit or Ctrl-D leaves (the session keeps running) once
what you typed is stored and your decisions are applied. /drop, /move, /promote and /inbox need
the owner's inbox, which another process does not see: use them where the session runs.

Options:
  --database-url URL  the database (or DATABASE_URL)
  --events            also print the owner's live lifecycle events
  --new               attach to a session no one has used yet: what you type first creates it
                      (for a worker to drive); without it such a name is refused
  -h, --help          show this help`

/** What to say when no one has used `name`: it is most likely a typo, or the owner is not started. */
const noSuchSession = (name: string): string =>
  `no session ${JSON.stringify(name)} in this database (no process drives it, and nothing was sent into it).\n` +
  `  Start it where it runs: steerable --database-url URL --session ${name}\n` +
  `  or create it for a worker to drive: steerable attach ${name} --new, then type its first message`

type Io = {
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean }
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean }
  readonly stderr: NodeJS.WritableStream
}

/**
 * `steerable attach NAME`: returns the exit code (2: bad usage or no pg; 1: the database failed,
 * the session does not exist (without `--new`), or a send could not be stored).
 */
export const runAttach = async (argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> => {
  let parsed: {
    values: { 'database-url'?: string; events?: boolean; new?: boolean; help?: boolean }
    positionals: string[]
  }
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        'database-url': { type: 'string' },
        events: { type: 'boolean' },
        new: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${ATTACH_USAGE}\n`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.stdout.write(`${ATTACH_USAGE}\n`)
    return 0
  }
  const url = values['database-url'] ?? env.DATABASE_URL
  const name = positionals[0]
  const problem =
    positionals.length !== 1 || !name
      ? 'steerable attach: name the session: steerable attach NAME'
      : !url
        ? 'steerable attach: give the database with --database-url URL (or DATABASE_URL)'
        : undefined
  if (problem || !url || !name) {
    io.stderr.write(`${problem}\n\n${ATTACH_USAGE}\n`)
    return 2
  }
  const pg = await loadPg()
  if (!pg) {
    io.stderr.write(pgMissing('steerable attach'))
    return 2
  }
  const pool = poolFor(pg, url, 3)
  if (typeof pool === 'string') {
    io.stderr.write(`${pool}\n`)
    return 2
  }
  const client = connectSessions(pool, { pollMs: 250 })
  let code = 0
  let quitting = false
  const write = (line: string) => {
    if (!quitting) view.print(line)
  }
  const style = io.stdout.isTTY ? COLORS : PLAIN
  let session: ReturnType<typeof client.session>
  try {
    session = client.session(name)
  } catch (error) {
    io.stderr.write(`steerable attach: ${errorText(error)}\n`)
    await Promise.all([client.close(), pool.end()]).catch(() => {})
    return 2
  }
  // A database that is not there, or has no tables, is said at once, not after the first line:
  // reading the session (no lease taken) fails with the cause and what to do. So is a name no
  // one has used (a typo would otherwise follow an empty session in silence), unless --new.
  const unreachable = await openPostgresSession(pool, name).then(
    (store) => {
      void store.close?.()
      return store.exists || values.new ? undefined : noSuchSession(name)
    },
    (error: unknown) => errorText(error),
  )
  if (unreachable !== undefined) {
    io.stderr.write(`steerable attach: ${unreachable}\n`)
    await Promise.all([client.close(), pool.end()]).catch(() => {})
    return 1
  }
  const view = liveView(io.stdout, style, {
    stream: io.stdout.isTTY === true,
    events: values.events === true,
  })
  const input = createInterface({ input: io.stdin, terminal: false })
  // A steer's receipt names the step that reads it, as the transcript shows it.
  const readers = new SteerReaders()
  const following = session.transcript$.subscribe({
    next: (event) => {
      readers.see(event)
      view.durable(event)
    },
    error: (error: unknown) => {
      io.stderr.write(`steerable attach: ${errorText(error)}\n`)
      code = 1
      input.close()
    },
  })
  following.add(session.events$.subscribe((event) => view.live(event)))
  const approvals = promptApprovals(session, style, write)
  following.add(approvals.subscription)
  io.stdout.write(`attached to ${name} (plain text steers, a followup while idle; /help; /quit leaves)\n`)

  const sends: Promise<unknown>[] = []
  const track = (sent: Promise<AgentMessageId>, text: string) => {
    const done = (line: string) => write(`${line} · ${oneLine(text, 60)}`)
    sends.push(
      sent.then(
        (id) =>
          void session.outcome(id).then(
            (outcome) => void readers.receipt(outcome).then(done),
            () => undefined, // Only once the client is closed: nothing to say then.
          ),
        (error: unknown) => {
          code = 1
          done(`✗ not sent (${errorText(error)})`)
        },
      ),
    )
  }
  for await (const line of input) {
    view.typed(line)
    // While a call waits, `y` and `n` answer it, as in the owner's terminal (never a steer "y").
    const asked = approvals.asked()
    const command = parseCommand(line, asked !== undefined)
    if (command.kind === 'empty') continue
    if (command.kind === 'quit') {
      // Now: a paused pipe that its writer keeps open would hold the process.
      ;(io.stdin as { destroy?: () => void }).destroy?.()
      break
    }
    try {
      if (command.kind === 'say' || command.kind === 'steer') track(session.steer(command.text), command.text)
      else if (command.kind === 'interrupt')
        track(session.steer(command.text, { interrupt: true }), command.text)
      else if (command.kind === 'cancel-tool')
        sends.push(sendToolCancel(session, command.callId, write, () => (code = 1)))
      else if (command.kind === 'rollback')
        sends.push(sendRollback(session, command.turns, write, () => (code = 1)))
      else if (command.kind === 'queue') track(session.followup(command.text), command.text)
      else if (command.kind === 'inject') {
        const source = { kind: 'plugin', plugin: 'cli' } as const
        track(session.inject({ content: [{ type: 'text', text: command.text }], source }), command.text)
      } else if (command.kind === 'cancel') {
        const what = command.keepInbox ? 'cancel (keeping the inbox)' : 'cancel'
        sends.push(
          session.cancel({ kind: 'user' }, { keepInbox: command.keepInbox }).then(
            () => write(`✓ ${what} sent`),
            (error: unknown) => {
              code = 1
              write(`✗ ${what} not sent (${errorText(error)})`)
            },
          ),
        )
      } else if (command.kind === 'approve' || command.kind === 'deny') {
        sends.push(sendDecision(session, command, write, () => (code = 1)))
      } else if (command.kind === 'yes' || command.kind === 'no') {
        if (asked) sends.push(sendDecision(session, answerCommand(command, asked), write, () => (code = 1)))
      } else if (command.kind === 'help') write(ATTACH_USAGE.slice(ATTACH_USAGE.indexOf('What you type')))
      else if (command.kind === 'unknown' || command.kind === 'usage')
        write(command.kind === 'usage' ? command.text : `unknown command: ${command.text} (try /help)`)
      else write(`/${command.kind} needs the owner's inbox: use it where the session runs`)
    } catch (error) {
      write(errorText(error))
    }
  }
  // What was typed is stored before leaving; its outcome is the session's business.
  await Promise.all(sends)
  quitting = true
  following.unsubscribe()
  await client.close()
  await pool.end().catch(() => {})
  return code
}
