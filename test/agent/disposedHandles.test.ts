/**
 * R82, R29: every reactive handle of a disposed agent ends as `transcript$` does: it gives what it
 * holds (the current value, or the replay), then completes. The list of handles is read from the
 * `Agent` type with the compiler, so a new Observable member cannot be left out.
 */
import { join } from 'node:path'
import type { Observable } from 'rxjs'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import {
  type Agent,
  type AgentMessageId,
  createAgent,
  defineTool,
  type SessionEvent,
} from '../../src/index.js'
import { label, scriptedModel } from '../../src/testing.js'
import { gate, setup } from '../support/agents.js'
import { noArgs } from '../support/tools.js'

/** The members of `Agent` (src/contracts/agent.ts) that are Observables, or methods returning one. */
const observableMembers = (): string[] => {
  const file = join(import.meta.dirname, '../../src/contracts/agent.ts')
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(file)
  const declaration = source?.statements.find(
    (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'Agent',
  )
  if (!declaration) throw new Error('src/contracts/agent.ts declares no type Agent')
  const isObservable = (type: ts.Type) => (type.aliasSymbol ?? type.getSymbol())?.name === 'Observable'
  return checker
    .getTypeAtLocation(declaration)
    .getProperties()
    .filter((member) => {
      const type = checker.getTypeOfSymbol(member)
      return isObservable(type) || type.getCallSignatures().some((s) => isObservable(s.getReturnType()))
    })
    .map((member) => member.name)
    .sort()
}

/** How each is subscribed on a disposed agent, given ids the agent delivered. */
type Subscribe = (agent: Agent, ids: { readonly prompt: AgentMessageId }) => Observable<unknown>
const HANDLES: Readonly<Record<string, Subscribe>> = {
  approvals$: (a) => a.approvals$,
  events$: (a) => a.events$,
  inbox$: (a) => a.inbox$,
  outcome$: (a, { prompt }) => a.outcome$(prompt),
  reply$: (a, { prompt }) => a.reply$(prompt),
  status$: (a) => a.status$,
  text$: (a) => a.text$,
  transcript$: (a) => a.transcript$,
  usage$: (a) => a.usage$,
  window$: (a) => a.window$,
}

/** Every value until the stream ends, or what it had when it did not end within a few turns. */
const ended = (stream$: Observable<unknown>): Promise<{ values: unknown[]; end: string }> =>
  new Promise((resolve) => {
    const values: unknown[] = []
    let done = false
    stream$.subscribe({
      next: (v) => values.push(v),
      error: () => {
        done = true
        resolve({ values, end: 'error' })
      },
      complete: () => {
        done = true
        resolve({ values, end: 'complete' })
      },
    })
    // A stream that ends after dispose() has ended by the time a macrotask runs: the agent has no
    // work left, so nothing is waited for but the stream itself.
    setImmediate(() => {
      if (!done) resolve({ values, end: 'open' })
    })
  })

const approvalTool = defineTool({
  name: 'rm',
  description: 'Removes.',
  parameters: noArgs,
  needsApproval: true,
  execute: () => 'removed',
})

describe('R82, R29: the reactive handles of a disposed agent', () => {
  it('R82: the Observables of Agent are the ones this test subscribes (a new one must be added here)', () => {
    expect(observableMembers()).toEqual(Object.keys(HANDLES).sort())
  })

  it.each([
    ['after an idle dispose()', false],
    ['after dispose() of a turn paused on an approval', true],
  ])('R82, R29: every one gives what it holds, then completes, %s', async (_, paused) => {
    const agent = createAgent({
      model: scriptedModel(paused ? [{ toolCalls: [{ name: 'rm' }] }] : ['Hi']),
      tools: [approvalTool],
    })
    const prompt = agent.followup('go')
    await new Promise<void>((resolve) =>
      agent.status$.subscribe((s) => {
        if (s === (paused ? 'paused' : 'idle') && agent.session.events.length > 0) resolve()
      }),
    )
    await agent.dispose()
    for (const [name, subscribe] of Object.entries(HANDLES)) {
      const { end } = await ended(subscribe(agent, { prompt }))
      expect(`${name}: ${end}`).toBe(`${name}: complete`)
    }
    const transcript = (await ended(agent.transcript$)).values as SessionEvent[]
    expect((await ended(agent.reply$(prompt))).values).toEqual(transcript)
    expect((await ended(agent.outcome$(prompt))).values).toEqual([
      { kind: 'delivered', as: 'prompt', turn: 1, seq: 2 },
    ])
  })

  it('R82, R29: reply$ of each delivered message replays its events from the log, as transcript$ has them', async () => {
    const first = gate()
    const { agent, rec } = setup([first.reply, 'after'])
    const outside = agent.inject('fact')
    const prompt = agent.followup('go')
    await rec.when('step/start(1.1)')
    const steer = agent.steer('shorter')
    const staged = agent.inject('late fact')
    first.release('long')
    await agent.whenIdle()
    await agent.dispose()
    const replies = await Promise.all(
      [outside, prompt, steer, staged].map(async (id) => {
        const { values, end } = await ended(agent.reply$(id))
        return [end, (values as SessionEvent[]).map(label)]
      }),
    )
    expect(replies).toEqual([
      ['complete', ['user(fact)']],
      [
        'complete',
        [
          'turn/start(1)',
          'user(go)',
          'step/start(1.1)',
          'assistant(long)',
          'steering(shorter)',
          'user(late fact)',
          'step/end(1.1)',
          'step/start(1.2)',
          'assistant(after)',
          'step/end(1.2)',
          'turn/end(1,completed)',
        ],
      ],
      [
        'complete',
        [
          'steering(shorter)',
          'user(late fact)',
          'step/end(1.1)',
          'step/start(1.2)',
          'assistant(after)',
          'step/end(1.2)',
          'turn/end(1,completed)',
        ],
      ],
      [
        'complete',
        [
          'user(late fact)',
          'step/end(1.1)',
          'step/start(1.2)',
          'assistant(after)',
          'step/end(1.2)',
          'turn/end(1,completed)',
        ],
      ],
    ])
    for (const id of [outside, prompt, steer, staged])
      expect((await agent.outcome(id)).kind).toBe('delivered')
  })
})
