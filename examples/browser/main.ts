/**
 * An agent in a web page: `steerable`'s browser build with the OpenAI-compatible adapter, which
 * talks to the model server with the page's `fetch`. Each step's answer is shown word by word as
 * it streams; "Steer" cuts the answer being streamed and runs the next step with the steer (R68),
 * and the page shows where the steer was delivered and how the turn ended.
 *
 * The model server is this page's own origin (`/v1`) unless the query says `?baseURL=…`; a server
 * on another origin must allow this page's origin (CORS). Never put a real API key in a page: put
 * a proxy of your own between the page and a paid provider.
 */
import { type AgentMessageId, createAgent, memoryStore } from 'steerable'
import { openaiModel } from 'steerable/openai'

const query = new URLSearchParams(location.search)
const agent = createAgent({
  model: openaiModel({
    baseURL: query.get('baseURL') ?? `${location.origin}/v1`,
    model: query.get('model') ?? 'gpt-4o-mini',
  }),
  store: memoryStore(),
})

const element = <T extends HTMLElement>(id: string): T => {
  const found = document.getElementById(id)
  if (!found) throw new Error(`the page has no #${id}`)
  return found as T
}
const steps = element<HTMLOListElement>('steps')
const outcome = element<HTMLParagraphElement>('outcome')
const error = element<HTMLParagraphElement>('error')
/** The answer of each step, by `turn.step`. */
const answers = new Map<string, HTMLLIElement>()

agent.status$.subscribe((status) => {
  element('status').textContent = status
})
agent.transcript$.subscribe((event) => {
  if (event.type === 'step/start') {
    const item = document.createElement('li')
    answers.set(`${event.data.turn}.${event.data.step}`, item)
    steps.append(item)
  } else if (event.type === 'step/end' && event.data.interrupted) {
    answers.get(`${event.data.turn}.${event.data.step}`)?.classList.add('interrupted')
  } else if (event.type === 'turn/end') {
    outcome.append(`Turn ${event.data.turn} ended: ${event.data.reason.kind}. `)
  }
})
agent.events$.subscribe((event) => {
  if (event.type === 'agent/stream/delta' && event.kind === 'text')
    answers.get(`${event.turn}.${event.step}`)?.append(event.text)
  else if (event.type === 'agent/error') error.textContent = String(event.error)
})

const describe = async (id: AgentMessageId): Promise<string> => {
  const settled = await agent.outcome(id)
  if (settled.kind !== 'delivered') return `The steer was not delivered (${settled.kind}).`
  const cut =
    'interrupted' in settled && settled.interrupted ? `, cutting step ${settled.interrupted.step}` : ''
  return `The steer was delivered as ${settled.as} in turn ${settled.turn}${cut}. `
}

const onSubmit = (formId: string, inputId: string, take: (text: string) => void) =>
  element<HTMLFormElement>(formId).addEventListener('submit', (submitted) => {
    submitted.preventDefault()
    const input = element<HTMLInputElement>(inputId)
    if (input.value.trim() === '') return
    try {
      take(input.value)
      input.value = ''
    } catch (refused) {
      error.textContent = String(refused)
    }
  })
onSubmit('prompt-form', 'prompt', (text) => agent.followup(text))
onSubmit('steer-form', 'steer', (text) => {
  const id = agent.steer(text, { interrupt: true })
  describe(id).then(
    (said) => outcome.prepend(said),
    (failed: unknown) => {
      error.textContent = String(failed)
    },
  )
})
