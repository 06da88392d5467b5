import { map, Observable, timer } from 'rxjs'
import { z } from 'zod'
import type { Agent } from '../src/contracts/agent.js'
import type { ModelRequest } from '../src/contracts/model.js'
import type { ScriptedReply } from '../src/testing/scriptedModel.js'
import { defineTool } from '../src/tools/defineTool.js'
import { callTools, type marbles } from './harness.js'

type Context = Parameters<Parameters<typeof marbles>[0]>[0]

/**
 * The step of the approval scenarios: the model answers at frame 11 with `shell()` (call-1, needs
 * approval; answers at once when it runs) and `read()` (call-2, needs none; answers 20 frames
 * after it starts, at frame 31).
 */
export const approvalTools = (m: Context, onRead?: (agent: Agent) => void) => {
  const parameters = z.object({})
  const shell = defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters,
    needsApproval: true,
    execute: () => 'ran',
  })
  const read = defineTool({
    name: 'read',
    description: 'Reads a file.',
    parameters,
    // `onRead` runs right after the result is delivered, in its call stack.
    execute: (_args, ctx) =>
      new Observable<string>((subscriber) =>
        m.cold('20ms (r|)', { r: 'read' }).subscribe({
          next: (value) => {
            subscriber.next(value)
            onRead?.(ctx.agent as Agent)
          },
          complete: () => subscriber.complete(),
        }),
      ),
  })
  return [shell, read]
}

/** The roles of each model request's messages, read at `frame` (after the run's requests). */
export const requestRoles = (requests: readonly ModelRequest[], frame: number) =>
  timer(frame).pipe(map(() => requests.map((r) => r.messages.map((message) => message.role).join(','))))

/** The script of the scenarios: `shell()` and `read()` at frame 11, then `A2` ending the turn. */
export const PAUSING_SCRIPT: readonly ScriptedReply[] = [
  callTools([
    ['shell', '{}'],
    ['read', '{}'],
  ]),
  'A2',
]

/** `go` at frame 1, up to the pause at frame 11. */
export const PAUSE_START = {
  e: 'enqueue(go,queued)',
  r: 'running',
  d: 'dequeue(go)',
  t: 'turn/start(1)',
  u: 'user(go)',
  p: 'step/start(1.1)',
  a: 'assistant(shell())',
  q: 'approval/request(shell)',
  Q: 'approval?(shell)',
  z: 'paused',
}

/** The second step's answer, and the turn's end. */
export const PAUSE_END = {
  A: 'assistant(A2)',
  E: 'step/end(1.2)',
  N: 'turn/end(1,completed)',
  x: 'settled(1,completed)',
  i: 'idle',
}
