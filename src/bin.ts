// The `steerable` command: a shebang over the CLI module, which the library build emits beside
// the entries it shares its chunks with (one copy of the engine in the package, not two).
import './cli.js'
