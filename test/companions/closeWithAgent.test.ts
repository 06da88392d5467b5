/** The companion seat's one rule: what a companion owns closes with the agent, once. */
import { config } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { closeWithAgent } from '../../src/companions/closeWithAgent.js'
import { createAgent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

const agent = () => createAgent({ model: scriptedModel([]) })
const saved = config.onUnhandledError
afterEach(() => {
  config.onUnhandledError = saved
})

describe('closeWithAgent', () => {
  it('closes once when the agent is disposed', async () => {
    const a = agent()
    let closes = 0
    closeWithAgent(a, () => closes++)
    expect(closes).toBe(0)
    await a.dispose()
    expect(closes).toBe(1)
  })

  it('closes at once for an agent that has ended, and the early close is not repeated', async () => {
    const a = agent()
    await a.dispose()
    let closes = 0
    const close = closeWithAgent(a, () => closes++)
    expect(closes).toBe(1)
    close()
    expect(closes).toBe(1)
    const b = agent()
    let early = 0
    closeWithAgent(b, () => early++)()
    await b.dispose()
    expect(early).toBe(1)
  })

  it('a close that throws or rejects is reported and changes nothing for the agent', async () => {
    const reported: unknown[] = []
    config.onUnhandledError = (error) => reported.push(error)
    const a = agent()
    closeWithAgent(a, () => {
      throw 'not an Error'
    })
    closeWithAgent(a, () => Promise.reject(new Error('late')))
    await a.dispose()
    await Promise.resolve()
    expect(reported).toEqual(['not an Error', new Error('late')])
  })
})
