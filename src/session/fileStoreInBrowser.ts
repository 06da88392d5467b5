import type { FileStore } from './fileStore.js'

/**
 * `fileStore` in the browser build of `steerable` (its `browser` condition): the file store needs
 * Node's file system, so this stand-in throws, with what to use instead. It is a function of the
 * same type, not a missing export, so that a page that only names it still bundles and the
 * mistake surfaces as this message where it is made, not as a bundler's failure to resolve
 * `node:fs` deep inside a chunk.
 */
export const fileStore = (path: string): FileStore => {
  throw new Error(
    `fileStore(${JSON.stringify(path)}) needs Node: import it from 'steerable/node' in a Node process; ` +
      'in the browser use memoryStore() or a store of your own',
  )
}
