/**
 * Input with shared references (a DAG, not a cycle) costs its size, not the number of its paths:
 * `send()` copies a shared value once, and refuses a value whose shared references would repeat
 * too much as JSON; a record copies at most a bounded number of values (R1, R2).
 */
import { describe, expect, it } from 'vitest'
import { createAgent, InvalidInputError } from '../../src/index.js'
import { jsonSafe, MAX_VALUES } from '../../src/messages/jsonSafe.js'
import { jsonSnapshot, MAX_REPEATED } from '../../src/messages/snapshot.js'
import { scriptedModel } from '../../src/testing.js'

/** `levels` levels, each holding the one below twice: 2^levels paths to the bottom. */
const dag = (levels: number): unknown => {
  let node: unknown = { leaf: 'x' }
  for (let i = 0; i < levels; i++) node = { a: node, b: node }
  return node
}
const withMeta = (meta: unknown) => ({
  content: [{ type: 'text' as const, text: 'hi' }],
  source: { kind: 'user' as const, meta },
})

describe('shared references', () => {
  it('R1: a value shared at several places is copied once, and the copy is shared the same way', () => {
    const shared = { note: 'same' }
    const result = jsonSnapshot({ first: shared, second: [shared, shared] }, 'input')
    expect(result.ok).toBe(true)
    const value = (result as unknown as { value: { first: object; second: object[] } }).value
    expect(value.second[0]).toBe(value.first)
    expect(value.second[1]).toBe(value.first)
    expect(Object.isFrozen(value.first)).toBe(true)
  })

  it('R1, R2: a send whose shared references repeat a few thousand values is accepted and written as JSON', async () => {
    const agent = createAgent({ model: scriptedModel(['ok']) })
    const id = agent.send(withMeta(dag(12)), { target: 'next-turn', wakeup: true })
    await agent.whenIdle()
    const written = JSON.stringify(agent.session.events)
    expect(written.length).toBeGreaterThan(4096 * 10)
    expect((await agent.outcome(id)).kind).toBe('delivered')
  })

  it('R2: a send of a few hundred bytes that stands for 2^40 values is refused at once, and nothing is sent', () => {
    const agent = createAgent({ model: scriptedModel([]) })
    const events: unknown[] = []
    agent.events$.subscribe((e) => events.push(e))
    let error: unknown
    try {
      agent.followup(withMeta(dag(40)))
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InvalidInputError)
    expect((error as Error).message).toContain(`repeat more than ${MAX_REPEATED.toLocaleString('en-US')}`)
    expect(events).toEqual([])
    expect(agent.inbox.queue).toEqual([])
  })

  it('R2: shared references that would nest deeper than 256 levels as JSON are refused', () => {
    // Each link holds the one before it 200 levels down: copied once each, but as JSON the
    // chain nests 200 levels per link.
    const nest = (inner: unknown, levels: number): unknown => {
      let node = inner
      for (let i = 0; i < levels; i++) node = [node]
      return node
    }
    const links: unknown[] = [nest('end', 200)]
    for (let i = 1; i < 5; i++) links.push(nest(links[i - 1], 200))
    const result = jsonSnapshot(links, 'input')
    expect(result.ok).toBe(false)
    expect(JSON.stringify(result)).toContain('nested more than 256 levels deep')
  })

  it('a record copies at most a bounded number of values of a shared error value', () => {
    const copied = jsonSafe({ error: dag(40) })
    const text = JSON.stringify(copied)
    expect(text).toContain('[too large]')
    expect(text.length).toBeLessThan(MAX_VALUES * 40)
  })
})
