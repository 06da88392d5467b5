/**
 * `npm run test:docs`: the code in the Markdown documents is checked like code. Every ```ts
 * block of README.md and docs/*.md is extracted into .doctest/ and type-checked against the
 * package's sources (`steerable` and each subpath, such as `steerable/testing`, map to src/), then:
 *
 * - ```ts        a complete program: run with tsx (it must exit 0);
 * - ```ts test   a test file: run with vitest;
 * - ```ts sketch the shape of a call, not code: not checked (say so in the text around it).
 *
 * A snippet that needs a name it does not define or import fails here, as it would for a reader
 * who pastes it. `npm run test:docs -- docs/models.md` checks the documents named.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const out = join(root, '.doctest')
// `npm run test:docs -- docs/models.md` checks only the documents it names; no name, all of them.
const only = process.argv.slice(2)
const documents = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => join('docs', f))].filter(
  (f) => f.endsWith('.md') && (only.length === 0 || only.includes(f)),
)

type Snippet = {
  readonly file: string
  readonly line: number
  readonly kind: 'run' | 'test'
  readonly code: string
}

const snippets: Snippet[] = []
for (const document of documents) {
  const lines = readFileSync(join(root, document), 'utf8').split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^```ts(?:\s+(\w+))?\s*$/.exec(lines[i] ?? '')
    if (!open) continue
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'))
    const code = lines.slice(i + 1, end).join('\n')
    const flag = open[1]
    if (flag !== 'sketch')
      snippets.push({ file: document, line: i + 1, kind: flag === 'test' ? 'test' : 'run', code })
    i = end
  }
}

rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const names = snippets.map((s, k) => {
  const base = `${s.file.replace(/[^\w]+/g, '_')}_${s.line}`
  const name = s.kind === 'test' ? `${base}.test.ts` : `${base}.ts`
  // A header says where the snippet comes from; `export {}` makes each file a module.
  writeFileSync(join(out, name), `// ${s.file}:${s.line}\n${s.code}\nexport {}\n`)
  return { name, snippet: snippets[k] as Snippet }
})
const paths = {
  steerable: ['../src/index.ts'],
  'steerable/testing': ['../src/testing.ts'],
  'steerable/openai': ['../src/openai.ts'],
  'steerable/ai-sdk': ['../src/aisdk.ts'],
  'steerable/timeline': ['../src/timeline.ts'],
  'steerable/client': ['../src/client.ts'],
  'steerable/postgres': ['../src/postgres.ts'],
  'steerable/node': ['../src/node.ts'],
}
writeFileSync(
  join(out, 'tsconfig.json'),
  JSON.stringify(
    {
      extends: '../tsconfig.json',
      compilerOptions: { noEmit: true, baseUrl: '.', paths, types: ['node'] },
      include: ['*.ts'],
    },
    null,
    2,
  ),
)

// vitest resolves the package names by alias (it does not read tsconfig paths).
writeFileSync(
  join(out, 'vitest.config.ts'),
  `export default { resolve: { alias: [
    { find: 'steerable/testing', replacement: '${join(root, 'src/testing.ts')}' },
    { find: 'steerable/openai', replacement: '${join(root, 'src/openai.ts')}' },
    { find: 'steerable/ai-sdk', replacement: '${join(root, 'src/aisdk.ts')}' },
    { find: 'steerable/timeline', replacement: '${join(root, 'src/timeline.ts')}' },
    { find: 'steerable/client', replacement: '${join(root, 'src/client.ts')}' },
    { find: 'steerable/postgres', replacement: '${join(root, 'src/postgres.ts')}' },
    { find: 'steerable/node', replacement: '${join(root, 'src/node.ts')}' },
    { find: /^steerable$/, replacement: '${join(root, 'src/index.ts')}' },
  ] } }\n`,
)

const failures: string[] = []
const bin = (name: string) => join(root, 'node_modules', '.bin', name)
/** Runs in .doctest/, so a snippet that writes a file (a session log) writes it there. */
/**
 * Deadlines exist only to name what never finished: CI shares its machine, where a type-check of
 * every snippet took over a minute beside other work, so each is ten times what a calm run takes.
 */
const TYPE_CHECK_MS = 600_000
const PROGRAM_MS = 300_000
const TESTS_MS = 600_000
const run = (what: string, command: string, args: string[], timeout: number): Promise<void> =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk))
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeout} ms)`
      child.kill('SIGKILL')
    }, timeout)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code !== 0) failures.push(`${what}\n${output}`)
      resolve()
    })
  })

/**
 * The programs run a few at a time (most of their time is starting Node and tsx), the test
 * snippets in one vitest run; what each snippet does stays in a directory of its own files.
 */
const runAll = async (jobs: readonly (() => Promise<void>)[], width: number) => {
  let next = 0
  const lane = async () => {
    while (next < jobs.length) await jobs[next++]?.()
  }
  await Promise.all(Array.from({ length: width }, lane))
}

console.log(`doc snippets: ${names.length} from ${documents.length} documents`)
const programs = names.filter(({ snippet }) => snippet.kind === 'run')
const tests = names.filter(({ snippet }) => snippet.kind === 'test')
await runAll(
  [
    () => run('type-check of the snippets', bin('tsc'), ['-p', join(out, 'tsconfig.json')], TYPE_CHECK_MS),
    ...programs.map(
      ({ name, snippet }) =>
        () =>
          run(
            `${snippet.file}:${snippet.line} (run)`,
            bin('tsx'),
            ['--tsconfig', join(out, 'tsconfig.json'), join(out, name)],
            PROGRAM_MS,
          ),
    ),
    ...(tests.length > 0
      ? [
          () =>
            run(
              `the test snippets (${tests.map(({ snippet }) => `${snippet.file}:${snippet.line}`).join(', ')})`,
              bin('vitest'),
              ['run', '--root', out, ...tests.map(({ name }) => name)],
              TESTS_MS,
            ),
        ]
      : []),
  ],
  availableParallelism() + 1,
)
if (failures.length > 0) {
  console.error(`doc snippets: ${failures.length} failed\n\n${failures.join('\n\n')}`)
  process.exit(1)
}
console.log('doc snippets: all passed')
rmSync(out, { recursive: true, force: true })
