/**
 * R84: `openaiModel` calls its `fetch` as a plain function. A browser's `window.fetch` called as
 * a method of another object throws "Illegal invocation"; Node's does not mind, so this stands in
 * for the browser's check (the Chromium test of the browser example runs the real one).
 */
import { from, lastValueFrom, toArray } from 'rxjs'
import { afterEach, expect, it } from 'vitest'
import { openaiModel } from '../../src/openai.js'
import { answer, closeServers, serve } from '../support/openaiServer.js'

afterEach(closeServers)

it('R84: the fetch is called with no `this`, as a page needs its window.fetch to be', async () => {
  const server = await serve(answer('hello'))
  const thisValues: unknown[] = []
  const strictFetch = function (this: unknown, input: string | URL | Request, init?: RequestInit) {
    thisValues.push(this)
    if (this !== undefined && this !== globalThis)
      throw new TypeError("Failed to execute 'fetch': Illegal invocation")
    return fetch(input, init)
  }
  const model = openaiModel({ baseURL: server.baseURL, model: 'test-model', fetch: strictFetch })
  const request = {
    agentId: 'agent-1',
    turn: 1,
    step: 1,
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }],
    tools: [],
    signal: new AbortController().signal,
  }
  const events = await lastValueFrom(from(model(request)).pipe(toArray()))
  expect(events).toContainEqual({ type: 'text', text: 'hello' })
  expect(thisValues).toEqual([undefined])
})
