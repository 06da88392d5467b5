/**
 * `npm run test:ai-sdk-7` (part of `npm test`): the tests of `steerable/ai-sdk` on the AI SDK line
 * of Node 22 and later, ai 7 with provider interface V4 (contract R87).
 *
 * The devDependencies hold the line of Node 20 (ai 6, `@ai-sdk/provider` 3), which `npm ci`
 * installs without a warning on the Node 20.19 the project supports. The packages of ai 7 declare
 * Node 22, so they live in a project of their own, scripts/ai-sdk-7/ (pinned, with its lockfile),
 * which this script installs with `npm ci` when its installed versions are not the pinned ones: on
 * Node 20 that install warns `EBADENGINE`, as it should (the tests run it on Node 20 anyway; an app
 * on Node 22 is on the versions the AI SDK supports). It needs the npm registry then. Then:
 *
 * 1. every test in test/aisdk/ runs with `ai` and `@ai-sdk/*` resolved to that line
 *    (`STEERABLE_AI_SDK_LINE`, vitest.config.ts): `MockLanguageModelV4`, `tool()` and
 *    `@ai-sdk/anthropic` are ai 7's;
 * 2. the sources type-check with it: test/types/aiSdkTools.test.ts (what `tool()` of ai 7 returns
 *    fits `fromAiSdkTools`), and a V4 model and its call settings fit `LanguageModel` and
 *    `FromLanguageModelOptions['callOptions']`.
 *
 * The built declarations are checked with this line by scripts/checkAiSdkTypes.ts, after it.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'

const root = join(import.meta.dirname, '..')
const line = join(root, 'scripts/ai-sdk-7')
const modules = join(line, 'node_modules')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'

const run = (command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) => {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options })
  if (result.status !== 0) {
    console.error(`test:ai-sdk-7: ${command} ${args.join(' ')} failed (${result.status ?? result.signal})`)
    process.exit(1)
  }
}

const pinned = JSON.parse(readFileSync(join(line, 'package.json'), 'utf8')).devDependencies as Record<
  string,
  string
>
const installedVersion = (name: string) => {
  const file = join(modules, name, 'package.json')
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
    : undefined
}
if (Object.entries(pinned).some(([name, version]) => installedVersion(name) !== version)) {
  console.log('test:ai-sdk-7: installing the ai 7 line into scripts/ai-sdk-7 (it declares Node 22)')
  run(npm, ['ci', '--no-audit', '--no-fund'], { cwd: line })
}

// 1. The tests of steerable/ai-sdk on ai 7.
run(npx, ['vitest', 'run', '--project', 'steerable', 'test/aisdk'], {
  cwd: root,
  env: { ...process.env, STEERABLE_AI_SDK_LINE: line },
})

// 2. The sources' types with ai 7's.
const v4App = `
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider'
import type { FromLanguageModelOptions, LanguageModel } from '${join(root, 'src/aisdk.js')}'

declare const model: LanguageModelV4
declare const settings: Omit<LanguageModelV4CallOptions, 'prompt' | 'tools' | 'abortSignal'>
export const fits: LanguageModel = model
export const callOptions: NonNullable<FromLanguageModelOptions['callOptions']> = settings
`
const dir = mkdtempSync(join(tmpdir(), 'steerable-ai-sdk-7-'))
try {
  const app = join(dir, 'v4.mts')
  writeFileSync(app, v4App)
  const files = [app, join(root, 'test/types/aiSdkTools.test.ts')]
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    },
  )
  const program = ts.createProgram(files, {
    ...config?.options,
    paths: {
      ...config?.options.paths,
      ai: [join(modules, 'ai/dist/index.d.ts')],
      '@ai-sdk/provider': [join(modules, '@ai-sdk/provider/dist/index.d.ts')],
    },
  })
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? `${d.file.fileName}: ` : ''}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    )
  if (problems.length > 0) {
    console.error(`test:ai-sdk-7: the sources do not type-check with ai 7:\n${problems.join('\n')}`)
    process.exit(1)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
console.log(
  `test:ai-sdk-7: test/aisdk passed on ai ${pinned.ai}, and the sources type-check with it (provider interface V4)`,
)
