/**
 * The layering of src/ (docs/architecture.md has the same table). `npm run lint:deps` checks it:
 * no import cycles anywhere, and each folder imports only the folders listed for it.
 */
const folders = {
  contracts: [],
  messages: ['contracts'],
  machine: ['contracts', 'messages'],
  session: ['contracts', 'messages'],
  tools: ['contracts', 'messages'],
  runtime: ['contracts', 'messages', 'machine', 'session', 'tools'],
  goals: ['contracts', 'messages', 'runtime'],
  operators: ['contracts', 'messages', 'session', 'goals'],
  agent: ['contracts', 'messages', 'machine', 'runtime', 'session', 'tools'],
  adapterKit: ['contracts'],
  openai: ['contracts', 'messages', 'adapterKit'],
  aisdk: ['contracts', 'messages', 'adapterKit'],
  testing: ['contracts', 'messages'],
  timeline: ['contracts', 'messages', 'session', 'testing'],
  client: [],
  web: ['contracts', 'messages', 'timeline', 'client'],
  cli: ['contracts', 'messages', 'web', 'entry'],
  postgres: ['contracts', 'messages', 'session', 'runtime', 'agent'],
}
const all = Object.keys(folders)

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import cycles hide the order in which the pipeline is built; break them.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...Object.entries(folders).map(([folder, allowed]) => {
      const others = all.filter((f) => f !== folder && !allowed.includes(f))
      const entry = !allowed.includes('entry')
      return {
        name: `layers-${folder}`,
        comment: `src/${folder}/ may import only: ${allowed.join(', ') || 'nothing of ours'}`,
        severity: 'error',
        from: { path: `^src/${folder}/` },
        to: {
          path: [
            ...others.map((f) => `^src/${f}/`),
            ...(entry ? ['^src/(index|openai|aisdk|testing|timeline|client|postgres|cli)\\.ts$'] : []),
          ],
        },
      }
    }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
