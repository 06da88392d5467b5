import { Observable } from 'rxjs'
import { describe, it } from 'vitest'
import { z } from 'zod'
import type { ScriptedReply } from '../src/testing.js'
import { defineTool } from '../src/tools/defineTool.js'
import { callTools, marbles, scenario } from './harness.js'

describe('tool batches', () => {
  it(
    'R21, R22: context from tools and steering/injects sent while the batch runs enter after the whole batch, in acceptance order',
    marbles((m) => {
      const lookup = defineTool({
        name: 'lookup',
        description: 'Looks a word up.',
        parameters: z.object({ q: z.string() }),
        execute: ({ q }, ctx) => {
          ctx.context(`note-${q}`)
          return m.cold('10ms (r|)', { r: `result-${q}` })
        },
      })
      const script: ScriptedReply[] = [
        callTools([
          ['lookup', '{"q":"a"}'],
          ['lookup', '{"q":"b"}'],
        ]),
        'A2',
      ]
      const { drive, expectEvents, expectTranscript } = scenario(m, { script, tools: [lookup] })
      // biome-ignore format: marble alignment
      drive(           '-f 13ms s 9ms c', {
        f: (agent) => agent.followup('go'),
        s: (agent) => agent.steer('s'),
        c: (agent) => agent.inject('ctx'),
      })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 9ms S 15ms D 9ms (xi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', S: 'enqueue(s,steering)', D: 'dequeue(s)',
        x: 'settled(1,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms a 9ms (CR) 6ms (CKnsbceP)(AEN)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', a: 'assistant(lookup())',
        C: 'tool/call(lookup)', R: 'tool/result(call-1)', K: 'tool/result(call-2)', n: 'user(note-a)',
        s: 'steering(s)', b: 'user(note-b)', c: 'user(ctx)', e: 'step/end(1.1)', P: 'step/start(1.2)',
        A: 'assistant(A2)', E: 'step/end(1.2)', N: 'turn/end(1,completed)',
      })
    }),
  )

  it(
    'R15, R16: a step with tool calls continues; consecutive tool steps each run their own batch',
    marbles((m) => {
      const parameters = z.object({})
      const lookup = defineTool({ name: 'lookup', description: '', parameters, execute: () => 'found' })
      const fetch = defineTool({ name: 'fetch', description: '', parameters, execute: () => 'fetched' })
      const script: ScriptedReply[] = [callTools([['lookup', '{}']]), callTools([['fetch', '{}']]), 'A3']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script, tools: [lookup, fetch] })
      drive('-f', { f: (agent) => agent.followup('go') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 25ms (xi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', x: 'settled(1,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms (aCReP)---(bDREQ)---(AFN)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', a: 'assistant(lookup())',
        C: 'tool/call(lookup)', R: 'tool/result(call-1)', e: 'step/end(1.1)', P: 'step/start(1.2)',
        b: 'assistant(fetch())', D: 'tool/call(fetch)', E: 'step/end(1.2)', Q: 'step/start(1.3)',
        A: 'assistant(A3)', F: 'step/end(1.3)', N: 'turn/end(1,completed)',
      })
    }),
  )

  it(
    'R25: cancel mid-batch — a started call without a value is ABORTED, a value delivered from its abort listener is its result, a call never dispatched is ABORTED_BEFORE_DISPATCH',
    marbles((m) => {
      const parameters = z.object({})
      const hang = defineTool({
        name: 'hang',
        description: '',
        parameters,
        parallel: true,
        execute: () => m.cold('-'),
      })
      const partial = defineTool({
        name: 'partial',
        description: '',
        parameters,
        parallel: true,
        execute: (_args, ctx) =>
          new Observable<string>((subscriber) => {
            ctx.signal.addEventListener('abort', () => {
              subscriber.next('partial')
              subscriber.complete()
            })
          }),
      })
      const later = defineTool({ name: 'later', description: '', parameters, execute: () => 'never runs' })
      const script: ScriptedReply[] = [
        callTools([
          ['hang', '{}'],
          ['partial', '{}'],
          ['later', '{}'],
        ]),
      ]
      const { drive, expectEvents, expectTranscript } = scenario(m, { script, tools: [hang, partial, later] })
      // biome-ignore format: marble alignment
      drive(           '-f 13ms x', { f: (agent) => agent.followup('go'), x: (agent) => agent.cancel({ kind: 'user' }) })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 9ms (cxi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', c: 'cancel(user)', x: 'settled(1,aborted)',
        i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms a---(CRDKFLen)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', a: 'assistant(hang())',
        C: 'tool/call(hang)', R: 'tool/result(call-1,ABORTED)', D: 'tool/call(partial)',
        K: 'tool/result(call-2)', F: 'tool/call(later)', L: 'tool/result(call-3,ABORTED_BEFORE_DISPATCH)',
        e: 'step/end(1.1)', n: 'turn/end(1,aborted)',
      })
    }),
  )

  it(
    'R17: concludeTurn ends the turn after its step without turnStopping; steering drained in that step stays in this turn',
    marbles((m) => {
      const finish = defineTool({
        name: 'finish',
        description: 'Ends the turn.',
        parameters: z.object({}),
        execute: (_args, ctx) => {
          ctx.concludeTurn()
          return m.cold('10ms (r|)', { r: 'done' })
        },
      })
      const script: ScriptedReply[] = [callTools([['finish', '{}']])]
      const { drive, expectEvents, expectTranscript } = scenario(m, {
        script,
        tools: [finish],
        hooks: { turnStopping: ({ agent }) => void agent.inject('turnStopping ran') },
      })
      drive('-f 13ms s', { f: (agent) => agent.followup('go'), s: (agent) => agent.steer('s') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 9ms S 5ms (Dxi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', S: 'enqueue(s,steering)', D: 'dequeue(s)',
        x: 'settled(1,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms a 9ms (CRsen)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', a: 'assistant(finish())',
        C: 'tool/call(finish)', R: 'tool/result(call-1)', s: 'steering(s)', e: 'step/end(1.1)',
        n: 'turn/end(1,completed)',
      })
    }),
  )
})

describe('request failures', () => {
  it(
    'R23, R24: a failed request closes the step, then agent/error, turn/end {error}, settled {error}, idle',
    marbles((m) => {
      const script: ScriptedReply[] = [m.cold('5ms #', {}, new Error('boom'))]
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      drive('-f', { f: (agent) => agent.followup('go') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd)(zxi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', z: 'error(1.1)', x: 'settled(1,error)',
        i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup)(en)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', e: 'step/end(1.1)', n: 'turn/end(1,error)',
      })
    }),
  )

  it(
    'R24: retry() inside requestError — the failed turn ends with its error and one retry turn opens right after, with no settled or idle between',
    marbles((m) => {
      const script: ScriptedReply[] = [m.cold('5ms #', {}, new Error('boom')), 'A2']
      const { drive, expectEvents, expectTranscript } = scenario(m, {
        script,
        hooks: {
          requestError: ({ agent }) => {
            agent.retry()
            agent.retry() // repeated calls coalesce
          },
        },
      })
      drive('-f', { f: (agent) => agent.followup('go') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd)z 9ms (xi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', z: 'error(1.1)', x: 'settled(2,completed)',
        i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup)(enTP) 4ms (AEN)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', e: 'step/end(1.1)', n: 'turn/end(1,error)',
        T: 'turn/start(2,retry)', P: 'step/start(2.1)', A: 'assistant(A2)', E: 'step/end(2.1)',
        N: 'turn/end(2,completed)',
      })
    }),
  )
})
