/**
 * Table tests of `tools.ts`: a tool source's new list is noted, and the next step records how its
 * list differs from the previous step's before its request (R100).
 */
import { describe, it } from 'vitest'
import type { Input } from '../../src/machine/inputs.js'
import type { ToolLists } from '../../src/machine/state.js'
import {
  call,
  checkIgnored,
  checkRow,
  durable,
  effect,
  type IgnoredRow,
  idle,
  live,
  type Row,
  turn,
  turning,
} from '../support/machineFixtures.js'

const ref = (version: number, ...names: string[]) => ({ version, names })
const lists = (latest: ReturnType<typeof ref>, step = ref(0, 'a')): ToolLists => ({ latest, step })
const listed = (version: number, names: string[], error?: unknown): Input =>
  error === undefined
    ? { type: 'tools/listed', version, names }
    : { type: 'tools/listed', version, names, error }
const stepHookDone: Input = { type: 'step-hook/done', activity: 1, step: 1 }
const boom = new Error('duplicate')

describe('tool sources (R100)', () => {
  const rows: readonly Row[] = [
    [
      'R100: a new list is noted; the step under way keeps the list it saw',
      turning({ phase: 'tools' }, { tools: lists(ref(0, 'a')) }),
      listed(1, ['a', 'b']),
      [],
      { tools: lists(ref(1, 'a', 'b')) },
    ],
    [
      'R100: what the catalog dropped is an agent/error at the running step',
      turning({ phase: 'tools', step: 2 }, { tools: lists(ref(0, 'a')) }),
      listed(1, ['a'], boom),
      [live({ type: 'agent/error', turn: 1, step: 2, error: boom })],
      { tools: lists(ref(1, 'a')) },
    ],
    [
      'R100: between turns, the error names the last turn and step 0',
      idle({ lastTurn: 3, tools: lists(ref(0, 'a')) }),
      listed(1, ['a'], boom),
      [live({ type: 'agent/error', turn: 3, step: 0, error: boom })],
      { tools: lists(ref(1, 'a')) },
    ],
    [
      'R100: the next step sees the latest list: tools/changed before its step/start, the version on its request',
      turning({ phase: 'step-hook', stepOpen: false }, { tools: lists(ref(2, 'b', 'c')) }),
      stepHookDone,
      [
        durable('tools/changed', { added: ['b', 'c'], removed: ['a'] }),
        'step/start(1.1)',
        effect({ kind: 'model', activity: 1, turn: 1, step: 1, tools: 2 }),
      ],
      {
        activity: turn({ phase: 'model', stepOpen: true }),
        tools: lists(ref(2, 'b', 'c'), ref(2, 'b', 'c')),
      },
    ],
    [
      'R100: a new version with the same names records nothing, and the step uses it',
      turning({ phase: 'step-hook', stepOpen: false }, { tools: lists(ref(1, 'a')) }),
      stepHookDone,
      ['step/start(1.1)', effect({ kind: 'model', activity: 1, turn: 1, step: 1, tools: 1 })],
      { activity: turn({ phase: 'model', stepOpen: true }), tools: lists(ref(1, 'a'), ref(1, 'a')) },
    ],
    [
      "R100: the step's tool calls run in the list it saw",
      turning(
        { phase: 'model', draft: { content: [call('c1')], toolCalls: [call('c1')], finish: 'tool-calls' } },
        { tools: lists(ref(3, 'read'), ref(2, 'read')) },
      ),
      { type: 'model/complete', activity: 1, step: 1 },
      [
        'assistant(read())',
        effect({ kind: 'tools', activity: 1, turn: 1, step: 1, calls: [call('c1')], tools: 2 }),
      ],
      {
        activity: turn({
          phase: 'tools',
          draft: { content: [call('c1')], toolCalls: [call('c1')], finish: 'tool-calls' },
        }),
      },
    ],
  ]
  it.each(rows)('%s', (...row) => checkRow(...row))

  const ignored: readonly IgnoredRow[] = [
    [
      'R100: a list older than the one noted changes nothing',
      idle({ tools: lists(ref(2, 'a')) }),
      listed(1, ['b']),
    ],
  ]
  it.each(ignored)('%s', (...row) => checkIgnored(...row))

  it('R100: without sources the step request carries no version (the list at creation)', () =>
    checkRow(
      '',
      turning({ phase: 'step-hook', stepOpen: false }),
      stepHookDone,
      ['step/start(1.1)', effect({ kind: 'model', activity: 1, turn: 1, step: 1 })],
      { activity: turn({ phase: 'model', stepOpen: true }) },
    ))
})
