import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The browser app's script. The package ships it built (`dist/webapp.js`, beside the command);
 * run from the sources (`npm start -- --web`, the tests), it is bundled from `app/main.ts` with
 * esbuild, a development dependency that is there whenever the sources are.
 */
export const loadAppScript = async (): Promise<string> => {
  const built = new URL('./webapp.js', import.meta.url)
  if (existsSync(fileURLToPath(built))) return readFileSync(built, 'utf8')
  const entry = fileURLToPath(new URL('./app/main.ts', import.meta.url))
  if (!existsSync(entry))
    throw new Error(`steerable serve: neither ${fileURLToPath(built)} nor ${entry} exists`)
  // A name the bundler cannot follow: the built command never includes esbuild.
  const name = 'esbuild'
  const esbuild = (await import(name)) as {
    build(options: object): Promise<{ outputFiles: { text: string }[] }>
  }
  const out = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
  })
  return out.outputFiles[0]!.text
}

/** `js` safe inside an inline `<script>` element. */
export const inlineScript = (js: string): string => js.replace(/<\/(script)/gi, '<\\/$1')
