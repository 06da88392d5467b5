/**
 * Where src/agent/, src/runtime/ and src/postgres/ still import three parsers from. Each parser
 * lives in the file named after it (parseSendValue.ts, parseCancelArgs.ts, parseContextInput.ts,
 * with parseSendOptions.ts and userTextFastPath.ts beside them); once those folders import them
 * from there, this file goes.
 */
export { parseCancelArgs } from './parseCancelArgs.js'
export { parseContextInput } from './parseContextInput.js'
export { parseSendValue } from './parseSendValue.js'
