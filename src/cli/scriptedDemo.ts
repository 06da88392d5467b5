/**
 * The scripted demo that `npm start` runs without a terminal (and with no input lines): a
 * followup whose turn calls a tool, a steer landing between the steps of that running turn, an
 * inject, and a cancel, printing live events (·) and the transcript (■) as they happen.
 */
import { concatMap, from, map, type Observable, timer } from 'rxjs'
import { z } from 'zod'
import { createAgent, defineTool, type ModelEvent } from '../index.js'
import { label, scriptedModel, wordDeltas } from '../testing.js'

export const runScriptedDemo = async (): Promise<void> => {
  const WORD_MS = 40
  const tty = process.stdout.isTTY
  const dim = (s: string) => (tty ? `\x1b[2m${s}\x1b[0m` : s)
  const bold = (s: string) => (tty ? `\x1b[1m${s}\x1b[0m` : s)

  /** Streams `text` word by word, then the tool calls, then finishes. */
  const speak = (text: string, ...calls: [string, object][]): Observable<ModelEvent> =>
    from([
      ...wordDeltas(text).map((t): ModelEvent => ({ type: 'text', text: t })),
      ...calls.map(
        ([name, args], i): ModelEvent => ({
          type: 'tool-call',
          id: `c${i}`,
          name,
          arguments: JSON.stringify(args),
        }),
      ),
      { type: 'finish', reason: calls.length > 0 ? 'tool-calls' : 'stop' } as const,
    ]).pipe(concatMap((event) => timer(WORD_MS).pipe(map(() => event))))

  const model = scriptedModel([
    () => speak('Let me check Paris.', ['weather', { city: 'Paris' }]),
    () => speak('You also asked for Rome.', ['weather', { city: 'Rome' }]),
    () => speak('Paris is 18°C and sunny; Rome is 24°C and clear.'),
    { hang: true },
  ])

  const weather = defineTool({
    name: 'weather',
    description: 'Current weather for a city.',
    parameters: z.object({ city: z.string() }),
    // A slow tool: the steer below arrives while it runs and lands before the next step.
    execute: ({ city }) => timer(400).pipe(map(() => (city === 'Paris' ? '18°C, sunny' : '24°C, clear'))),
  })

  const agent = createAgent({ model, tools: [weather], instructions: 'You are a concise demo assistant.' })
  agent.events$.subscribe((event) => {
    if (event.type !== 'agent/stream/delta') console.log(dim(`  · ${label(event)}`))
  })
  agent.transcript$.subscribe((event) => console.log(`  ■ ${event.seq} ${label(event)}`))
  const step = (title: string) => console.log(`\n${bold(`▶ ${title}`)}`)

  step('followup("What is the weather in Paris?")')
  agent.followup('What is the weather in Paris?')
  setTimeout(() => {
    step(
      `steer("Also Rome, please.") while the weather tool runs (acceptsNextStep = ${agent.acceptsNextStep})`,
    )
    agent.steer('Also Rome, please.')
  }, 450)
  await agent.whenIdle()

  step('inject(...) while idle: appended at once, no turn, no model run')
  agent.inject({
    content: [{ type: 'text', text: 'The user reads this in a terminal.' }],
    source: { kind: 'plugin', plugin: 'demo' },
  })

  step('followup("Tell me a very long story.") then cancel({kind: "user"}) after 300 ms')
  agent.followup('Tell me a very long story.')
  setTimeout(() => agent.cancel({ kind: 'user' }), 300)
  await agent.whenIdle()

  step('session.messages(): what the model would see next')
  for (const message of agent.session.messages()) {
    const first = message.content[0]
    const text =
      first?.type === 'text'
        ? first.text
        : first?.type === 'tool-result'
          ? JSON.stringify(first.content)
          : first?.type
    console.log(`  ${message.role.padEnd(9)} ${text}`)
  }
  await agent.dispose()
  console.log(`\n${bold('done')}: ${agent.session.events.length} durable events, agent disposed.`)
}
