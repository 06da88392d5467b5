/**
 * Part of `npm test`, after the build: `steerable/ai-sdk`'s published declarations type-check
 * with both AI SDK provider interfaces that `npm i ai` may bring (contract R87): `@ai-sdk/provider`
 * 3.x (ai 6, what Node 20 gets) and 4.x (ai 7, Node 22 and later). For each, and for the ESM and
 * the CommonJS declarations, it checks dist/aisdk.d.ts (or .d.cts), libraries included, and a
 * small app that passes that version's model and call settings to `fromLanguageModel`, and a tool
 * of the same line's `tool()` (ai 6 or ai 7) to `fromAiSdkTools`.
 *
 * `@ai-sdk/provider` is mapped to each version's install: 3.x is the devDependency, 4.x is in
 * scripts/ai-sdk-7/, the line of Node 22 that `npm run test:ai-sdk-7` installs (it runs before this
 * in `npm test`; without it this check fails and says so). Only problems in our
 * declarations and the app count: the provider's own declarations want `@types/json-schema`,
 * which an app that checks libraries installs (docs/models.md).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import ts from 'typescript'

const root = join(import.meta.dirname, '..')
const providers = [
  {
    version: 3,
    types: join(root, 'node_modules/@ai-sdk/provider/dist/index.d.ts'),
    ai: join(root, 'node_modules/ai/dist/index.d.ts'),
  },
  {
    version: 4,
    types: join(root, 'scripts/ai-sdk-7/node_modules/@ai-sdk/provider/dist/index.d.ts'),
    ai: join(root, 'scripts/ai-sdk-7/node_modules/ai/dist/index.d.ts'),
  },
]
for (const { version, types } of providers)
  if (!existsSync(types)) {
    console.error(
      `@ai-sdk/provider ${version}.x is not installed (${relative(root, types)}): ` +
        (version === 4 ? 'npm run test:ai-sdk-7 installs it' : 'npm ci installs it'),
    )
    process.exit(1)
  }
const dist = join(root, 'dist')
// The app imports the ESM declarations by the entry's name and the CommonJS ones by another.
const entries = {
  'steerable/ai-sdk': join(dist, 'aisdk.d.ts'),
  'steerable-cjs/ai-sdk': join(dist, 'aisdk.d.cts'),
}

/** An app of provider version `v`: its model and its own call settings fit steerable's types. */
const app = (v: number, entry: string) => `
import type { LanguageModelV${v}, LanguageModelV${v}CallOptions } from '@ai-sdk/provider'
import { fromAiSdkTools, fromLanguageModel, type FromLanguageModelOptions, type LanguageModel } from '${entry}'
import { jsonSchema, tool } from 'ai'

declare const model: LanguageModelV${v}
declare const settings: Omit<LanguageModelV${v}CallOptions, 'prompt' | 'tools' | 'abortSignal'>
export const adapter = fromLanguageModel(model, { callOptions: settings, headersTimeoutMs: 60_000 })
export const fits: LanguageModel = model
export const options: FromLanguageModelOptions = {
  callOptions: {
    maxOutputTokens: 1024,
    stopSequences: ['END'],
    toolChoice: { type: 'auto' },
    providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } },
  },
}
// @ts-expect-error a model id is not a model
fromLanguageModel('claude-sonnet-4-5')
// The tools of the same release's tool() fit fromAiSdkTools.
const weather = tool({
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }),
  needsApproval: async ({ city }) => city === 'Oslo',
  execute: async ({ city }, { toolCallId }) => ({ city, toolCallId }),
})
export const tools = fromAiSdkTools({ weather })
// @ts-expect-error AI SDK tools go by name, not in an array
fromAiSdkTools([weather])
`

const problems: string[] = []
const dir = mkdtempSync(join(tmpdir(), 'steerable-aisdk-types-'))
try {
  for (const { version, types, ai } of providers) {
    const files = Object.keys(entries).map((entry, i) => {
      const file = join(dir, `app-v${version}-${i}.ts`)
      writeFileSync(file, app(version, entry))
      return file
    })
    const program = ts.createProgram(files, {
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      skipLibCheck: false,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
      paths: {
        '@ai-sdk/provider': [types],
        ai: [ai],
        ...Object.fromEntries(Object.entries(entries).map(([entry, file]) => [entry, [file]])),
      },
    })
    const ours = ts
      .getPreEmitDiagnostics(program)
      .filter(
        (d) => d.file === undefined || files.includes(d.file.fileName) || d.file.fileName.startsWith(dist),
      )
    for (const d of ours) {
      const name = d.file?.fileName
      const app =
        name && files.indexOf(name) >= 0 ? `the app of ${Object.keys(entries)[files.indexOf(name)]}` : name
      const where = app ? `${name?.startsWith(dist) ? relative(root, app) : app}: ` : ''
      problems.push(
        `@ai-sdk/provider ${version}.x: ${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      )
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
if (problems.length > 0) {
  console.error(`steerable/ai-sdk does not type-check with every provider interface:\n${problems.join('\n')}`)
  process.exit(1)
}
console.log(
  'ai-sdk types: dist/aisdk.d.ts and .d.cts type-check with @ai-sdk/provider 3.x and 4.x, and so do apps of each',
)
