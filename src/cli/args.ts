import { parseArgs } from 'node:util'

export type CliOptions = {
  readonly baseURL?: string
  readonly model?: string
  readonly apiKey?: string
  readonly session?: string
  readonly events: boolean
  readonly help: boolean
}

export const USAGE = `Usage: steerable [options]

Chat with an agent and steer it while it works. Without options it talks to a built-in offline
demo model (no network, no key).

Options:
  --base-url URL     an OpenAI-compatible endpoint (or OPENAI_BASE_URL)
  --model NAME       the model to use there (default gpt-4o-mini)
  --api-key KEY      the API key (or OPENAI_API_KEY)
  --session FILE     persist to a JSON Lines file and resume it on the next start
  --events           also print the live lifecycle events
  -h, --help         show this help

While a turn runs: Enter steers it; Tab (or /queue text) queues a followup; /inject text adds
context; Esc or /cancel cancels (/cancel keep keeps the inbox); /quit or Ctrl-D quits.
Without a terminal each input line is a followup (lines starting with / are the same commands).`

/** Parses the command line; environment variables fill in the endpoint and key. */
export const parseCliArgs = (argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key': { type: 'string' },
      session: { type: 'string' },
      events: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  })
  const baseURL = values['base-url'] ?? env.OPENAI_BASE_URL
  const apiKey = values['api-key'] ?? env.OPENAI_API_KEY
  return {
    ...(baseURL ? { baseURL } : {}),
    ...(values.model ? { model: values.model } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(values.session ? { session: values.session } : {}),
    events: values.events ?? false,
    help: values.help ?? false,
  }
}
