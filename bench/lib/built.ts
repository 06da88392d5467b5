/**
 * The library as its users get it: the tsup build in `dist/` (`npm run bench` builds it first;
 * a single script run by hand needs `npm run build` once).
 *
 * Why not `src/` through tsx: tsx transforms with esbuild's `keepNames`, which wraps every named
 * closure in a `__name(fn, 'name')` call, an `Object.defineProperty` for each closure created.
 * The published build has none of them, and they made a turn look ~1.5× slower than it is.
 * Types still come from `src/`, so type-checking `bench/` needs no build.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type * as Aisdk from '../../src/aisdk.js'
import type * as Index from '../../src/index.js'
import type * as OpenAI from '../../src/openai.js'
import type * as Postgres from '../../src/postgres.js'
import type * as Testing from '../../src/testing.js'

const load = async <T>(file: string): Promise<T> => {
  const url = new URL(`../../dist/${file}`, import.meta.url)
  if (!existsSync(fileURLToPath(url)))
    throw new Error(`bench: ${fileURLToPath(url)} is missing; run \`npm run build\` (npm run bench does)`)
  return (await import(url.href)) as T
}

export const steerable = await load<typeof Index>('index.js')
export const steerableTesting = await load<typeof Testing>('testing.js')
/** `steerable/postgres`, loaded only by the benchmarks that use it. */
export const loadPostgres = () => load<typeof Postgres>('postgres.js')
/** `steerable/openai` and `steerable/ai-sdk`, loaded only by the benchmarks that use them. */
export const loadAdapters = async () => ({
  openai: await load<typeof OpenAI>('openai.js'),
  aisdk: await load<typeof Aisdk>('aisdk.js'),
})
