/**
 * R84 without a browser: the browser build of `steerable` (src/browser.ts, as
 * scripts/browserEntry.ts builds it) bundles with esbuild for `platform: 'browser'`, takes in no
 * Node module and no file-store module, and exports every name the Node entry exports, its
 * `fileStore` a stand-in that says where the real one is.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as nodeEntry from '../../src/index.js'
import * as nodeOnly from '../../src/node.js'
import { bundleForBrowser } from '../support/bundleForBrowser.js'

describe('the browser build of steerable', () => {
  it('R84: bundles for the browser with no warning, no Node module and none of the file store', async () => {
    const bundle = await bundleForBrowser({ file: 'src/browser.ts' })
    expect(bundle.warnings).toEqual([])
    expect(bundle.inputs.filter((f) => f.startsWith('node:'))).toEqual([])
    const fileStoreModules = bundle.inputs.filter((f) =>
      /src\/session\/(fileStore|fileLock|logFileStore)\.ts$/.test(f),
    )
    expect(fileStoreModules).toEqual([])
    expect(bundle.inputs).toContain('src/session/fileStoreInBrowser.ts')
  })

  it("R84: exports every name of the Node entry; its fileStore throws, naming 'steerable/node' and memoryStore()", async () => {
    const bundle = await bundleForBrowser({ file: 'src/browser.ts' })
    const file = join(mkdtempSync(join(tmpdir(), 'browser-entry-')), 'browser.mjs')
    writeFileSync(file, bundle.code)
    const browserEntry = (await import(pathToFileURL(file).href)) as typeof nodeEntry
    expect(Object.keys(browserEntry).sort()).toEqual(Object.keys(nodeEntry).sort())
    expect(() => browserEntry.fileStore('session.jsonl')).toThrow(
      `fileStore("session.jsonl") needs Node: import it from 'steerable/node' in a Node process; ` +
        'in the browser use memoryStore() or a store of your own',
    )
  })

  it('R84: in Node, steerable/node exports the very fileStore that steerable exports', () => {
    expect(nodeOnly.fileStore).toBe(nodeEntry.fileStore)
  })
})
