/**
 * `npm start`: a short demo on the scripted model. It shows a followup, a steer landing in the
 * running turn, an inject, and a cancel, printing live events (·) and the transcript (■) as they
 * happen, then exits.
 */
import { concatMap, from, map, type Observable, timer } from 'rxjs'
import { createAgent, type ModelEvent, type ModelRequest } from '../src/index.js'
import { label, scriptedModel, wordDeltas } from '../src/testing.js'

const WORD_MS = 60
const dim = (s: string) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s)
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s)

/** Streams `text` word by word, then finishes. */
const speak =
  (text: string) =>
  (_request: ModelRequest): Observable<ModelEvent> =>
    from([...wordDeltas(text).map((t): ModelEvent => ({ type: 'text', text: t })), finish]).pipe(
      concatMap((event) => timer(WORD_MS).pipe(map(() => event))),
    )
const finish: ModelEvent = { type: 'finish', reason: 'stop' }

const model = scriptedModel([
  speak('steerable delivers messages into a running agent loop: followups, steering and injected context.'),
  speak('Sure, in one sentence: steer lands between steps of the turn that is running.'),
  { hang: true },
])

const agent = createAgent({ model, instructions: 'You are a concise demo assistant.' })
agent.events$.subscribe((event) => {
  if (event.type !== 'agent/stream/delta') console.log(dim(`  · ${label(event)}`))
})
agent.transcript$.subscribe((event) => console.log(`  ■ ${event.seq} ${label(event)}`))

const step = (title: string) => console.log(`\n${bold(`▶ ${title}`)}`)

step('followup("What is steerable?")')
agent.followup('What is steerable?')
setTimeout(() => {
  step(`steer("Say it in one sentence.") while step 1 streams (acceptsNextStep = ${agent.acceptsNextStep})`)
  agent.steer('Say it in one sentence.')
}, WORD_MS * 4)

await agent.whenIdle()
step('inject("The user reads this in a terminal.") while idle: appended at once, no turn')
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
  console.log(`  ${message.role.padEnd(9)} ${first?.type === 'text' ? first.text : first?.type}`)
}
await agent.dispose()
console.log(`\n${bold('done')}: ${agent.session.events.length} durable events, agent disposed.`)
