import { parseArgs } from 'node:util'
import { checkInput } from '../messages/checkInput.js'

export type CliOptions = {
  /** An AI SDK provider (`anthropic`, `google` …) whose package the app installed. */
  readonly provider?: string
  readonly baseURL?: string
  readonly model?: string
  readonly apiKey?: string
  readonly session?: string
  /** With `session`: the session is stored in PostgreSQL at this URL, under that name. */
  readonly databaseUrl?: string
  readonly events: boolean
  /** The demo model's pace: 1 is the default, 0.5 half as fast, 4 four times as fast. */
  readonly demoSpeed: number
  readonly help: boolean
}

export const USAGE = `Usage: steerable [options]
       steerable serve [options]      the same in a browser page, with the live timeline
       steerable view SESSION.jsonl   a saved session's timeline as an HTML page
       steerable fork FROM.jsonl TO.jsonl [--turn N]   a new session from a saved one, up to
                                      the end of turn N (steerable fork --help)
       steerable migrate --database-url URL   (steerable migrate --help)
       steerable attach NAME --database-url URL   follow and steer a session another
                                      terminal drives on PostgreSQL (steerable attach --help)

Chat with an agent and steer it while it works. Without options it talks to a built-in offline
demo model (no network, no key).

Options:
  --base-url URL     an OpenAI-compatible endpoint (or OPENAI_BASE_URL)
  --model NAME       the model to use there (default gpt-4o-mini)
  --api-key KEY      the API key (or OPENAI_API_KEY)
  --provider NAME    an AI SDK provider instead: anthropic, openai, google, mistral, groq,
                     deepseek or xai; needs its package (npm install @ai-sdk/anthropic), --model,
                     and its key (ANTHROPIC_API_KEY …); --base-url and --api-key go to it.
                     --provider openai --base-url URL speaks Chat Completions to that server
                     (no package needed); without --base-url, @ai-sdk/openai talks to OpenAI
                     with its Responses API
  --session FILE     persist to a JSON Lines file and resume it on the next start (while
                     DATABASE_URL is set, a FILE must end in .jsonl)
  --database-url URL with --session NAME: keep the session in PostgreSQL instead (needs the pg
                     package); other terminals follow and steer it with steerable attach NAME
  --events           also print the live lifecycle events
  --demo-speed N     the demo model's pace (default 1; 0.5 gives you twice the time to steer)
  -h, --help         show this help

While a turn runs: Enter steers it; Tab (or /queue text, /followup text) queues a followup;
/inject text adds context; Esc or /cancel cancels and drops what waits (/cancel keep keeps it; Esc
puts the dropped text back in the input line and says so); Ctrl-U clears the input line; /quit or
Ctrl-D quits at once, ending a running turn (with --session what waits is kept for the next start).
What waits is listed, numbered: Up edits the last queued item (Enter puts it back, Esc drops the
edit); Ctrl-P or /promote N steers item N into the running turn; /drop N removes it; /move N M
moves it to place M; /inbox lists it.
A tool call that needs approval pauses the turn (the demo's delete_file: type "delete notes.txt"):
the call and its arguments are shown, y approves it, n denies it, n <reason> denies it and tells
the model why.
Without a terminal each input line is taken like typed text: plain text steers a running turn
and is a followup while idle; lines starting with / are the same commands; blank lines are
skipped. The exit code is 1 when a turn ended with an error.`

/** Parses the command line; environment variables fill in the endpoint and key. */
export const parseCliArgs = (argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      provider: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key': { type: 'string' },
      session: { type: 'string' },
      'database-url': { type: 'string' },
      events: { type: 'boolean', default: false },
      'demo-speed': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  })
  const demoSpeed = values['demo-speed'] === undefined ? 1 : Number(values['demo-speed'])
  checkInput('steerable', (check) => {
    if (!(demoSpeed > 0 && Number.isFinite(demoSpeed)))
      check.add(
        ['--demo-speed'],
        `expected a number > 0 (1 is the default pace), got ${values['demo-speed']}`,
      )
    if (values['database-url'] !== undefined && values.session === undefined)
      check.add(['--database-url'], "also give --session NAME (the session's name in the database)")
    // With DATABASE_URL set, `--session desk` may mean that database's session as much as a file
    // named desk: neither is guessed (a guess writes a stray file, or tables into a database the
    // variable was set for another program). A name ending in .jsonl is a file, as asked.
    const session = values.session
    if (values['database-url'] === undefined && env.DATABASE_URL && session && !session.endsWith('.jsonl'))
      check.add(
        ['--session'],
        `DATABASE_URL is set: to keep ${session} in that database add --database-url "$DATABASE_URL"; for a file, give a name ending in .jsonl (--session ${session}.jsonl)`,
      )
  })
  // With --provider the key comes from that provider's own variable (src/cli/provider.ts).
  const openai = values.provider === undefined
  const baseURL = values['base-url'] ?? (openai ? env.OPENAI_BASE_URL : undefined)
  const apiKey = values['api-key'] ?? (openai ? env.OPENAI_API_KEY : undefined)
  return {
    ...(values.provider ? { provider: values.provider } : {}),
    ...(baseURL ? { baseURL } : {}),
    ...(values.model ? { model: values.model } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(values.session ? { session: values.session } : {}),
    ...(values['database-url'] !== undefined ? { databaseUrl: values['database-url'] } : {}),
    events: values.events ?? false,
    demoSpeed,
    help: values.help ?? false,
  }
}
