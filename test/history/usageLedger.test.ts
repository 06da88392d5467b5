/**
 * R73 as a ledger, with fast-check: a provider that bills each streamed chunk a known number of
 * output tokens and reports its bill in one of three ways (after every chunk, only in its
 * `finish`, or never), against cancels and interrupting steers at random points of the stream.
 * Time is driven by the events: the test emits each chunk itself once the agent subscribed to the
 * request, and acts between chunks; no clock is read.
 *
 * What is checked: each request the provider reported usage for is recorded as billed, not
 * estimated; every other request is recorded too, marked estimated; `agent.usage` is the sum of
 * what was recorded, so its reported part equals the bill; `requests` counts every model request
 * and `estimatedRequests` the unreported ones; a reopened session has the same `usage`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { EMPTY, Observable, type Subscriber } from 'rxjs'
import { afterAll, describe, expect, it } from 'vitest'
import { createAgent } from '../../src/agent/createAgent.js'
import type { Agent } from '../../src/contracts/agent.js'
import type { SessionEvent, SessionUsage } from '../../src/contracts/events.js'
import type { Usage } from '../../src/contracts/messages.js'
import type { ModelEvent } from '../../src/contracts/model.js'
import type { SessionStore } from '../../src/contracts/store.js'
import { fileStore, memoryStore } from '../../src/index.js'

/** What the provider bills for each chunk it streams. */
const TOKENS_PER_CHUNK = 3

/**
 * One model request as the provider serves it: its chunks, how it reports its bill, and how the
 * request ends: it finishes after all its chunks, or the user cancels or steers with `interrupt`
 * after the first `endAfter` of them.
 */
type RequestScript = {
  readonly report: 'per-chunk' | 'at-finish' | 'never'
  readonly chunks: readonly string[]
  readonly end: 'finish' | 'cancel' | 'interrupt'
  readonly endAfter: number
  /** Per-chunk reports: whether the finish repeats the bill too. */
  readonly finishUsage: boolean
  readonly inputTokens: number
  readonly cachedInputTokens: number
}

const requestArb: fc.Arbitrary<RequestScript> = fc
  .record({
    report: fc.constantFrom('per-chunk', 'at-finish', 'never'),
    chunks: fc.array(fc.string({ minLength: 1, maxLength: 9 }), { maxLength: 4 }),
    end: fc.constantFrom('finish', 'cancel', 'interrupt'),
    endAt: fc.nat(),
    finishUsage: fc.boolean(),
    inputTokens: fc.integer({ min: 1, max: 50 }),
    cachedInputTokens: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ endAt, ...r }) => ({
    ...r,
    endAfter: r.end === 'finish' ? r.chunks.length : endAt % (r.chunks.length + 1),
  }))

/**
 * A session's requests in order. After an interrupt the agent makes the next request itself (the
 * next step); after a finish or a cancel the test sends a prompt for it. The last one finishes, so
 * the agent comes to rest.
 */
const scriptArb = fc
  .tuple(fc.array(requestArb, { maxLength: 4 }), requestArb)
  .map(([first, last]) => [...first, { ...last, end: 'finish' as const, endAfter: last.chunks.length }])

/** What the provider billed for one request, and whether a report of the bill reached the agent. */
type Bill = { readonly reported: boolean; readonly usage: Usage }

/** The provider: each request waits for the test to serve it (`next()`), in order. */
const provider = () => {
  const waiting: Subscriber<ModelEvent>[] = []
  let wake: (() => void) | undefined
  const model = () =>
    new Observable<ModelEvent>((subscriber) => {
      waiting.push(subscriber)
      wake?.()
    })
  /** The next request, once the agent subscribed to it. */
  const next = (): Promise<Subscriber<ModelEvent>> =>
    waiting.length > 0
      ? Promise.resolve(waiting.shift() as Subscriber<ModelEvent>)
      : new Promise((resolve) => {
          wake = () => {
            wake = undefined
            resolve(waiting.shift() as Subscriber<ModelEvent>)
          }
        })
  return { model, next, requests: () => waiting.length }
}

/** Serves one request as scripted, acting on `agent` where it ends early; returns its bill. */
const serve = (agent: Agent, stream: Subscriber<ModelEvent>, r: RequestScript): Bill => {
  const billed = (chunks: number): Usage => ({
    inputTokens: r.inputTokens,
    outputTokens: chunks * TOKENS_PER_CHUNK,
    ...(r.cachedInputTokens > 0 ? { cachedInputTokens: r.cachedInputTokens } : {}),
  })
  for (let i = 0; i < r.endAfter; i++) {
    stream.next({ type: 'text', text: r.chunks[i] as string })
    // The chunk and its report arrive together: a report never lags a chunk it billed.
    if (r.report === 'per-chunk') stream.next({ type: 'usage', usage: billed(i + 1) })
  }
  const usage = billed(r.endAfter)
  if (r.end === 'cancel') agent.cancel({ kind: 'user' })
  else if (r.end === 'interrupt') agent.steer('again', { interrupt: true })
  else {
    const withUsage = r.report === 'at-finish' || (r.report === 'per-chunk' && r.finishUsage)
    stream.next({ type: 'finish', reason: 'stop', ...(withUsage ? { usage } : {}) })
    stream.complete()
    return { reported: r.report !== 'never' && (withUsage || r.endAfter > 0), usage }
  }
  return { reported: r.report === 'per-chunk' && r.endAfter > 0, usage }
}

/** The usage each request recorded, in order: on its message, or on the end of its step. */
const recorded = (events: readonly SessionEvent[]): Usage[] =>
  events.flatMap((e) =>
    (e.type === 'assistant/message' || e.type === 'step/end') && e.data.usage ? [e.data.usage] : [],
  )

const sum = (usages: readonly Usage[]) => ({
  inputTokens: usages.reduce((n, u) => n + u.inputTokens, 0),
  outputTokens: usages.reduce((n, u) => n + u.outputTokens, 0),
  cachedInputTokens: usages.reduce((n, u) => n + (u.cachedInputTokens ?? 0), 0),
})

/** Runs `script` on an agent over `store`; returns the bills and the agent, at rest. */
const runScript = async (script: readonly RequestScript[], store: SessionStore) => {
  const { model, next, requests } = provider()
  const agent = createAgent({ model, store })
  const bills: Bill[] = []
  agent.followup('go')
  for (const [i, r] of script.entries()) {
    bills.push(serve(agent, await next(), r))
    if (r.end !== 'interrupt' && i < script.length - 1) agent.followup(`go ${i}`)
  }
  await agent.whenIdle()
  // Every request the agent made was served: none is left waiting.
  expect(requests()).toBe(0)
  return { agent, bills }
}

const checkLedger = (agent: Agent, bills: readonly Bill[]): SessionUsage => {
  const usages = recorded(agent.session.events)
  // One record per request, in order: billed where reported, estimated elsewhere.
  expect(usages).toHaveLength(bills.length)
  for (const [i, bill] of bills.entries()) {
    if (bill.reported) expect(usages[i]).toEqual(bill.usage)
    else expect(usages[i]?.estimated).toBe(true)
  }
  const reported = bills.filter((b) => b.reported)
  const estimated = usages.filter((u) => u.estimated)
  const usage = agent.usage
  // The reported part of the total is the bill of the requests whose bill was reported.
  expect(sum(usages.filter((u) => !u.estimated))).toEqual(sum(reported.map((b) => b.usage)))
  const total = sum(usages)
  expect(usage).toEqual({
    ...total,
    requests: bills.length,
    estimatedRequests: bills.length - reported.length,
  })
  expect(estimated).toHaveLength(bills.length - reported.length)
  return usage
}

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('R73: the usage ledger against a per-chunk bill', () => {
  it('R73, R25, R68: over 1,000 random scripts of cancels and interrupts, usage is the bill where reported, every other request counted as estimated, and a reopened session agrees', async () => {
    let cut = 0
    let unreported = 0
    await fc.assert(
      fc.asyncProperty(scriptArb, async (script) => {
        const store = memoryStore()
        const { agent, bills } = await runScript(script, store)
        const live = checkLedger(agent, bills)
        await agent.dispose()
        expect(createAgent({ model: () => EMPTY, store }).usage).toEqual(live)
        cut += script.filter((r) => r.end !== 'finish').length
        unreported += bills.filter((b) => !b.reported).length
      }),
      { numRuns: 1_000 },
    )
    // The runs did cut requests and leave bills unreported (else the ledger was not tried).
    expect(cut).toBeGreaterThan(500)
    expect(unreported).toBeGreaterThan(500)
  }, 60_000)

  it('R73: a file store reloaded gives the same usage as the live agent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steerable-ledger-'))
    dirs.push(dir)
    let n = 0
    await fc.assert(
      fc.asyncProperty(scriptArb, async (script) => {
        const path = join(dir, `session-${n++}.jsonl`)
        const { agent, bills } = await runScript(script, fileStore(path))
        const live = checkLedger(agent, bills)
        await agent.dispose()
        const reopened = createAgent({ model: () => EMPTY, store: fileStore(path) })
        expect(reopened.usage).toEqual(live)
        await reopened.dispose()
      }),
      { numRuns: 40 },
    )
  }, 60_000)
})
