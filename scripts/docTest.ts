/**
 * `npm run test:docs`: the code in the Markdown documents is checked like code. Every ```ts
 * block of README.md and docs/*.md is extracted into .doctest/ and type-checked against the
 * package's sources (`steerable` and each subpath, such as `steerable/testing`, map to src/), then:
 *
 * - ```ts        a complete program: run with tsx (it must exit 0 within 20 s);
 * - ```ts test   a test file: run with vitest;
 * - ```ts sketch the shape of a call, not code: not checked (say so in the text around it).
 *
 * A snippet that needs a name it does not define or import fails here, as it would for a reader
 * who pastes it.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const out = join(root, '.doctest')
const documents = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => join('docs', f))].filter((f) =>
  f.endsWith('.md'),
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
    { find: /^steerable$/, replacement: '${join(root, 'src/index.ts')}' },
  ] } }\n`,
)

const failures: string[] = []
/** Runs in .doctest/, so a snippet that writes a file (a session log) writes it there. */
const run = (what: string, command: string, args: string[], timeout = 60_000): boolean => {
  const result = spawnSync(command, args, { cwd: out, encoding: 'utf8', timeout })
  if (result.status === 0) return true
  failures.push(`${what}\n${result.stdout}${result.stderr}${result.error ? String(result.error) : ''}`)
  return false
}

console.log(`doc snippets: ${names.length} from ${documents.length} documents`)
run('type-check of the snippets', 'npx', ['tsc', '-p', join(out, 'tsconfig.json')])
for (const { name, snippet } of names) {
  const where = `${snippet.file}:${snippet.line}`
  if (snippet.kind === 'run')
    run(`${where} (run)`, 'npx', ['tsx', '--tsconfig', join(out, 'tsconfig.json'), join(out, name)], 20_000)
  else run(`${where} (test)`, 'npx', ['vitest', 'run', '--root', out, name])
}
if (failures.length > 0) {
  console.error(`doc snippets: ${failures.length} failed\n\n${failures.join('\n\n')}`)
  process.exit(1)
}
console.log('doc snippets: all passed')
rmSync(out, { recursive: true, force: true })
