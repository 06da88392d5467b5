import { main } from './cli/main.js'

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`steerable: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  },
)
