/**
 * `steerable` in a browser: the `browser` condition of the package's `.` export. Everything
 * `./index.ts` exports, but `fileStore`, which needs Node's file system, is a stand-in that
 * throws a clear error when called.
 *
 * The build (tsup.config.ts, with scripts/browserEntry.ts) compiles the `./index.js` below as a
 * copy of index.ts whose `./session/fileStore.js` is the stand-in, so that no module importing
 * `node:*` enters this entry's graph; the explicit export below makes that the meaning of this
 * file for TypeScript and for any tool that reads it without that build.
 */
export * from './index.js'
export { fileStore } from './session/fileStoreInBrowser.js'
