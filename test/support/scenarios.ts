/**
 * A library of end-to-end scenarios, run by the invariant tests (R30, R31): each drives one agent
 * through a path of the contract and says whether its inbox must be empty at the end.
 */
import { NEVER, throwError } from 'rxjs'
import type { Agent, AgentOptions, ModelRequest } from '../../src/index.js'
import { createAgent } from '../../src/index.js'
import { type ScriptedReply, scriptedModel } from '../../src/testing.js'
import { PARKED } from './agents.js'

export type Scenario = {
  readonly name: string
  readonly script: readonly ScriptedReply[]
  readonly options?: Omit<AgentOptions, 'model'>
  /** Whether parked items or leftover steering remain at the end (R30 zero-at-idle does not apply). */
  readonly leavesInbox?: boolean
  readonly run: (agent: Agent) => Promise<void>
}

/** Resolves once `agent.events$`/`transcript$` delivered an event whose type is `type`. */
const on = (agent: Agent, type: string): Promise<void> =>
  new Promise((resolve) => {
    const sub = agent.transcript$.subscribe((e) => {
      if (e.type === type) {
        resolve()
        queueMicrotask(() => sub.unsubscribe())
      }
    })
  })

const hang: ScriptedReply = { hang: true }

export const scenarios: readonly Scenario[] = [
  {
    name: 'one followup',
    script: ['ok'],
    run: async (a) => {
      a.followup('a')
      await a.whenIdle()
    },
  },
  {
    name: 'a burst of five followups',
    script: ['1', '2', '3', '4', '5'],
    run: async (a) => {
      for (const t of ['a', 'b', 'c', 'd', 'e']) a.followup(t)
      await a.whenIdle()
    },
  },
  {
    name: 'parked then waking',
    script: ['1', '2'],
    run: async (a) => {
      a.send('p', PARKED)
      a.followup('w')
      await a.whenIdle()
    },
  },
  {
    name: 'waking then parked (parked stays)',
    script: ['1'],
    leavesInbox: true,
    run: async (a) => {
      a.followup('w')
      a.send('p', PARKED)
      await a.whenIdle()
    },
  },
  {
    name: 'steering drained into the running turn',
    script: [hang, 'ok'],
    run: async (a) => {
      const opened = on(a, 'step/start')
      a.followup('a')
      await opened
      a.steer('s')
      a.inject('c')
      a.cancel({ kind: 'user' }, { keepInbox: true })
      a.followup('b')
      await a.whenIdle()
    },
  },
  {
    name: 'cancel without keepInbox during a turn',
    script: [hang],
    run: async (a) => {
      const opened = on(a, 'step/start')
      a.followup('a')
      await opened
      a.steer('s')
      a.followup('q')
      a.send('p', PARKED)
      a.cancel({ kind: 'user' })
      await a.whenIdle()
    },
  },
  {
    name: 'cancel with keepInbox, leftover steering',
    script: [hang],
    leavesInbox: true,
    run: async (a) => {
      const opened = on(a, 'step/start')
      a.followup('a')
      await opened
      a.steer('s')
      a.cancel({ kind: 'parent' }, { keepInbox: true })
      await a.whenIdle()
    },
  },
  {
    name: 'blocked admission with steering staged, then a followup',
    script: ['ok'],
    options: {
      hooks: {
        promptSubmit: ({ agent, content }) => {
          if (content[0]?.type === 'text' && content[0].text === 'x') {
            agent.steer('s')
            return { kind: 'block', reason: 'no' }
          }
          return undefined
        },
      },
    },
    run: async (a) => {
      a.followup('x')
      await a.whenIdle()
      a.followup('y')
      await a.whenIdle()
    },
  },
  {
    name: 'a failing promptSubmit, then the next waking item',
    script: ['ok'],
    options: {
      hooks: {
        promptSubmit: ({ content }) => {
          if (content[0]?.type === 'text' && content[0].text === 'x') throw new Error('boom')
        },
      },
    },
    run: async (a) => {
      a.followup('x')
      a.followup('y')
      await a.whenIdle()
    },
  },
  {
    name: 'leftover steering taken by retry()',
    script: [hang, 'ok'],
    run: async (a) => {
      const opened = on(a, 'step/start')
      a.followup('a')
      await opened
      a.steer('s')
      a.cancel({ kind: 'user' }, { keepInbox: true })
      await a.whenIdle()
      a.retry()
      await a.whenIdle()
    },
  },
  {
    name: 'a failed request with leftover steering, then a followup',
    script: [
      () => {
        lateCalls?.()
        return throwError(() => new Error('down'))
      },
      'ok',
    ],
    run: async (a) => {
      lateCalls = () => a.steer('s')
      a.followup('a')
      await a.whenIdle()
      lateCalls = undefined
      a.followup('b')
      await a.whenIdle()
    },
  },
  {
    name: 'a cancel from a running subscriber (R14)',
    script: ['ok'],
    run: async (a) => {
      const sub = a.events$.subscribe((e) => {
        if (e.type === 'agent/status' && e.status === 'running') {
          sub.unsubscribe()
          a.cancel({ kind: 'user' })
        }
      })
      a.followup('x')
      a.followup('y')
      await a.whenIdle()
    },
  },
  {
    name: 'followups from turn/end subscribers',
    script: ['1', '2', '3'],
    run: async (a) => {
      let n = 0
      a.transcript$.subscribe((e) => {
        if (e.type === 'turn/end' && n < 2) {
          n++
          a.steer(`again-${n}`)
        }
      })
      a.followup('a')
      await a.whenIdle()
    },
  },
  {
    name: 'dispose with pending items and late calls from an abort listener',
    script: [
      (r: ModelRequest) => {
        r.signal.addEventListener('abort', () => lateCalls?.())
        return NEVER
      },
    ],
    run: async (a) => {
      lateCalls = () => {
        a.followup('late')
        a.steer('late-s')
        a.inject('late-c')
      }
      const opened = on(a, 'step/start')
      a.followup('a')
      await opened
      a.steer('s')
      a.followup('q')
      a.send('p', PARKED)
      await a.dispose()
      lateCalls = undefined
    },
  },
]

let lateCalls: (() => void) | undefined

export const createFor = (scenario: Scenario): Agent =>
  createAgent({ ...scenario.options, model: scriptedModel(scenario.script) })
