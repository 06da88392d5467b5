/**
 * R2: the messages of a parse by the package's `zod/mini` schemas are zod's English ones even
 * where no classic `zod` is loaded (a browser page): `zod/mini` loads no locale of its own, so
 * without the English map each parse is given an issue would read "Invalid input". The modules
 * are bundled with their own copy of zod, which nothing else in this process configures.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, it } from 'vitest'
import type * as goalMessage from '../../src/messages/readGoalMessage.js'
import type * as modelEvent from '../../src/runtime/parseModelEvent.js'
import { bundleForBrowser } from '../support/bundleForBrowser.js'

type Bundled = typeof goalMessage & typeof modelEvent

const bundled = async (): Promise<Bundled> => {
  const bundle = await bundleForBrowser({
    contents:
      "export { readGoalMessage } from './src/messages/readGoalMessage.ts'\n" +
      "export { parseModelEvent } from './src/runtime/parseModelEvent.ts'\n",
  })
  expect(bundle.inputs.filter((f) => /node_modules\/zod\/(index|v4\/classic\/)/.test(f))).toEqual([])
  const file = join(mkdtempSync(join(tmpdir(), 'mini-messages-')), 'bundle.mjs')
  writeFileSync(file, bundle.code)
  return (await import(pathToFileURL(file).href)) as Bundled
}

it("R2: with no classic zod loaded, a parse's issues still read as zod's English messages", async () => {
  const { readGoalMessage, parseModelEvent } = await bundled()
  expect(readGoalMessage([], { kind: 'goal', goalId: '', revision: 0, round: 0 })).toEqual({
    ok: false,
    path: ['source', 'goalId'],
    problem: 'invalid goal source: goalId: Too small: expected string to have >=1 characters',
  })
  expect(() => parseModelEvent({ type: 'text', text: 1 })).toThrow(
    'malformed model event at text: Invalid input: expected string, received number',
  )
})
