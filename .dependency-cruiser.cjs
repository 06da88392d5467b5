/**
 * The layering of src/ (docs/architecture.md has the same table). `npm run lint:deps` checks it:
 * no import cycles anywhere, and each folder imports only the folders listed for it.
 */
const folders = {
  // The public types. Those of events are the vocabulary's schemas' types, imported as types only
  // (the rule contracts-import-the-vocabulary-as-types-only keeps it so): contracts/ loads no code.
  contracts: ['vocabulary'],
  // The event vocabulary: each durable and live event defined once, as a zod/mini schema, with
  // its type. Built on the message data model of messages/; no agent, runtime or store.
  vocabulary: ['contracts', 'messages'],
  // What callers hand in, and every check of it: parsers, option checks, the one check helper.
  messages: ['contracts'],
  machine: ['contracts', 'messages'],
  session: ['contracts', 'messages', 'vocabulary'],
  tools: ['contracts', 'messages'],
  runtime: ['contracts', 'messages', 'machine', 'session', 'tools'],
  goals: ['contracts', 'messages', 'runtime'],
  operators: ['contracts', 'messages', 'session', 'goals'],
  agent: ['contracts', 'messages', 'machine', 'runtime', 'session', 'tools'],
  adapterKit: ['contracts', 'messages'],
  openai: ['contracts', 'messages', 'adapterKit'],
  aisdk: ['contracts', 'messages', 'adapterKit'],
  testing: ['contracts', 'messages'],
  timeline: ['contracts', 'messages', 'session', 'testing'],
  // The marble kit of steerable/testing: an agent on virtual time, recorded and drawn.
  marbleKit: ['contracts', 'agent', 'testing', 'timeline'],
  client: ['contracts'],
  web: ['contracts', 'messages', 'timeline', 'client'],
  // runtime: a quit lets go of a stored session as a PostgreSQL owner does (src/cli/quitNow.ts).
  cli: ['contracts', 'messages', 'adapterKit', 'web', 'entry', 'runtime'],
  postgres: ['contracts', 'messages', 'vocabulary', 'session', 'runtime', 'agent'],
  // The companion seat: capabilities that own other agents or tool servers beside an agent (child
  // agents, MCP toolsets). Above the agent: they may make agents and read their state; nothing
  // below imports them.
  companions: ['contracts', 'messages', 'machine', 'runtime', 'session', 'tools', 'agent'],
}
const all = Object.keys(folders)

/**
 * The rooms of src/postgres/ (steerable/postgres), by role: which rooms of it and which folders of
 * src/ each may import. src/postgres/channels.ts, every LISTEN/NOTIFY channel, is for all rooms.
 * The client reaches the owner through one file only: see the rule
 * `postgres-client-reaches-owner-only-through-the-no-owner-cancel` below.
 */
const rooms = {
  // What talks to the database as such: pool types, timeouts, errors, schema, LISTEN, reads.
  db: { rooms: [], folders: ['contracts', 'messages', 'session'] },
  // How requests, edits, checkpoints and live events are encoded as rows and decoded back. A remote
  // edit is checked by the local call's own checks, which live in messages/, not in agent/.
  rows: { rooms: ['db'], folders: ['contracts', 'messages', 'vocabulary', 'session'] },
  // A process that does not drive the session: it creates no agent.
  client: { rooms: ['db', 'rows'], folders: ['contracts', 'messages', 'session'] },
  // The process that drives a session.
  owner: { rooms: ['db', 'rows'], folders: ['contracts', 'session', 'runtime', 'agent'] },
  // createWorker: finds sessions with work and drives each as their owner.
  worker: {
    rooms: ['db', 'rows', 'owner'],
    folders: ['contracts', 'messages', 'session', 'runtime', 'agent'],
  },
}
const roomNames = Object.keys(rooms)
const roomRules = Object.entries(rooms).map(([room, allowed]) => {
  // The client's one way into the owner has a rule of its own, so a bad import is told once.
  const closed = roomNames.filter((r) => r !== room && !allowed.rooms.includes(r))
  const others = closed.filter((r) => !(room === 'client' && r === 'owner'))
  const folderless = folders.postgres.filter((f) => !allowed.folders.includes(f))
  return {
    name: `postgres-room-${room}`,
    comment:
      `src/postgres/${room}/ may import only the rooms ${allowed.rooms.join(', ') || '(none)'}, ` +
      `channels.ts, and the folders ${allowed.folders.join(', ')}`,
    severity: 'error',
    from: { path: `^src/postgres/${room}/` },
    to: {
      path: [...others.map((r) => `^src/postgres/${r}/`), ...folderless.map((f) => `^src/${f}/`)],
    },
  }
})

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
    ...roomRules,
    {
      name: 'postgres-client-reaches-owner-only-through-the-no-owner-cancel',
      comment:
        'A client drives no session. The one thing of the owner it uses is the cancel that, when ' +
        'nobody drives the session, takes the lease for a moment and applies itself ' +
        '(owner/cancelWithoutOwner.ts).',
      severity: 'error',
      from: { path: '^src/postgres/client/' },
      to: { path: '^src/postgres/owner/', pathNot: '^src/postgres/owner/cancelWithoutOwner\\.ts$' },
    },
    {
      name: 'agent-reaches-runtime-through-the-driver',
      comment:
        'The façade forwards to the driver, which owns the engine; it does not build pipeline ' +
        'pieces of its own. Of src/runtime/ it may import the driver, the engine config type, the ' +
        'hook set, the summarisers (config, like the hook set) and the extensions key.',
      severity: 'error',
      from: { path: '^src/agent/' },
      to: {
        path: '^src/runtime/',
        pathNot: '^src/runtime/(driver|engine|hookSet|summarizers|extensions)\\.ts$',
      },
    },
    {
      name: 'contracts-import-the-vocabulary-as-types-only',
      comment:
        "The event types of contracts/ are the types of the vocabulary's schemas; contracts/ " +
        'imports them with `import type`, so that importing a type never loads zod.',
      severity: 'error',
      from: { path: '^src/contracts/' },
      to: { path: '^src/vocabulary/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'runtime-never-imports-agent',
      comment:
        'The façade holds the driver, never the reverse: what runtime/ needs of a check or a ' +
        'policy lives in messages/ or machine/. (The layer table says so too; this rule keeps it ' +
        'when the table is widened.)',
      severity: 'error',
      from: { path: '^src/runtime/' },
      to: { path: '^src/agent/' },
    },
    {
      name: 'postgres-rows-never-imports-agent',
      comment:
        'A row codec encodes and decodes; the checks it shares with the local calls live in ' +
        'messages/, so a codec never loads the façade. (The room table says so too; this rule ' +
        'keeps it when the table is widened.)',
      severity: 'error',
      from: { path: '^src/postgres/rows/' },
      to: { path: '^src/agent/' },
    },
    {
      name: 'postgres-channels-import-nothing-of-ours',
      comment: 'Every room imports channels.ts, so it imports no room (nor anything else of ours).',
      severity: 'error',
      from: { path: '^src/postgres/channels\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'postgres-only-channels-outside-the-rooms',
      comment:
        'A file directly in src/postgres/ escapes the room rules: put it in its room (channels.ts ' +
        'is the one exception).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/postgres/[^/]+$', pathNot: '^src/postgres/channels\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
