import { main } from './cli/main.js'
import { errorText } from './messages/errorText.js'

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`steerable: ${errorText(error)}\n`)
    process.exitCode = 1
  },
)
