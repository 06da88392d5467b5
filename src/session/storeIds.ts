/**
 * The id that `forkSession` names a store by when the store has no `sessionId` of its own: a file
 * store's absolute path, set by `fileStore` where `node:path` is at hand. Kept here, off the
 * store's public shape, so that `forkSession` needs no Node module and runs in a browser too.
 */
const ids = new WeakMap<object, string>()

export const nameStore = <T extends object>(store: T, id: string): T => {
  ids.set(store, id)
  return store
}

export const storeIdOf = (store: object): string | undefined => ids.get(store)
