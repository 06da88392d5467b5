/**
 * `npm run example:browser`: builds examples/browser/ (its main.ts bundled for the browser, with
 * `steerable` and `steerable/openai` resolved to the sources as the package's browser build maps
 * them) and serves the page on http://127.0.0.1:5173 (`PORT=…` for another port).
 *
 * The page talks to `/v1` on its own origin: this server forwards `/v1/…` to the OpenAI-compatible
 * server at `MODEL_URL` (default http://127.0.0.1:11434/v1, a local Ollama), adding
 * `Authorization: Bearer $OPENAI_API_KEY` when that is set, so a key never reaches the page.
 * `npm run example:browser -- --build-only` builds into .artifacts/example-browser/ and exits.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { bundleForBrowser } from '../test/support/bundleForBrowser.js'

const root = join(import.meta.dirname, '..')
const example = join(root, 'examples', 'browser')

/** The example's page and its module, built; throws when the bundle warns or takes in a Node module. */
export const buildExample = async (): Promise<{ readonly html: string; readonly module: string }> => {
  const bundle = await bundleForBrowser({ file: 'examples/browser/main.ts' })
  const node = bundle.inputs.filter((f) => f.startsWith('node:'))
  if (bundle.warnings.length > 0 || node.length > 0)
    throw new Error(`the browser example did not bundle cleanly: ${[...bundle.warnings, ...node].join('; ')}`)
  return { html: readFileSync(join(example, 'index.html'), 'utf8'), module: bundle.code }
}

const serve = (built: { html: string; module: string }, port: number, modelUrl: string): void => {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/' || req.url === '/main.js')) {
      const page = req.url === '/'
      res.writeHead(200, { 'content-type': page ? 'text/html' : 'text/javascript' })
      res.end(page ? built.html : built.module)
      return
    }
    if (!req.url?.startsWith('/v1/')) {
      res.writeHead(404).end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const key = process.env.OPENAI_API_KEY
      fetch(`${modelUrl}${req.url?.slice('/v1'.length)}`, {
        method: req.method ?? 'GET',
        headers: {
          'content-type': req.headers['content-type'] ?? 'application/json',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
      }).then(
        (answer) => {
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/octet-stream',
          })
          if (answer.body) Readable.fromWeb(answer.body as never).pipe(res)
          else res.end()
        },
        (error: unknown) => {
          res.writeHead(502, { 'content-type': 'text/plain' })
          res.end(`the model server at ${modelUrl} did not answer: ${String(error)}`)
        },
      )
    })
  })
  server.listen(port, '127.0.0.1', () => {
    console.log(`the browser example: http://127.0.0.1:${port}/ (model server ${modelUrl}; Ctrl-C stops)`)
  })
}

if (process.argv[1] === import.meta.filename) {
  const built = await buildExample()
  if (process.argv.includes('--build-only')) {
    const out = join(root, '.artifacts', 'example-browser')
    mkdirSync(out, { recursive: true })
    writeFileSync(join(out, 'index.html'), built.html)
    writeFileSync(join(out, 'main.js'), built.module)
    console.log(`the browser example: built into ${out}`)
  } else {
    serve(built, Number(process.env.PORT ?? 5173), process.env.MODEL_URL ?? 'http://127.0.0.1:11434/v1')
  }
}
