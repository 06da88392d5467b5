import type { Agent } from '../contracts/agent.js'

/** What one line of input asks for. */
export type Command =
  | { readonly kind: 'say'; readonly text: string }
  | { readonly kind: 'queue' | 'steer' | 'inject'; readonly text: string }
  | { readonly kind: 'cancel'; readonly keepInbox: boolean }
  | { readonly kind: 'quit' | 'help' | 'empty' }
  | { readonly kind: 'unknown'; readonly text: string }

/** `/queue text`, `/steer text`, `/inject text`, `/cancel [keep]`, `/quit`, `/help`, or plain text. */
export const parseCommand = (line: string): Command => {
  const trimmed = line.trim()
  if (trimmed === '') return { kind: 'empty' }
  if (!trimmed.startsWith('/')) return { kind: 'say', text: trimmed }
  const [name = '', ...rest] = trimmed.slice(1).split(/\s+/)
  const text = rest.join(' ')
  switch (name) {
    case 'queue':
    case 'steer':
    case 'inject':
      return text ? { kind: name, text } : { kind: 'unknown', text: trimmed }
    case 'cancel':
      return { kind: 'cancel', keepInbox: text === 'keep' }
    case 'quit':
    case 'exit':
      return { kind: 'quit' }
    case 'help':
      return { kind: 'help' }
    default:
      return { kind: 'unknown', text: trimmed }
  }
}

/**
 * Runs a command on the agent. Plain text steers a running turn and is a followup otherwise
 * (`steer` does exactly that: R4 routes it by the acceptance window).
 */
export const runCommand = (agent: Agent, command: Command): string | undefined => {
  switch (command.kind) {
    case 'say':
    case 'steer':
      agent.steer(command.text)
      return undefined
    case 'queue':
      agent.followup(command.text)
      return undefined
    case 'inject':
      agent.inject({
        content: [{ type: 'text', text: command.text }],
        source: { kind: 'plugin', plugin: 'cli' },
      })
      return undefined
    case 'cancel':
      agent.cancel({ kind: 'user' }, { keepInbox: command.keepInbox })
      return undefined
    case 'unknown':
      return `unknown command: ${command.text} (try /help)`
    default:
      return undefined
  }
}
