/**
 * `steerable/node`: the parts of steerable that need Node (its file system). They are exported by
 * `steerable` too when it runs in Node; this subpath names them as Node-only, for code that also
 * bundles `steerable` for a browser, where `fileStore` is a stand-in that throws.
 */
export { type FileStore, fileStore } from './session/fileStore.js'
