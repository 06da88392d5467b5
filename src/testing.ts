/** `steerable/testing`: scripted models and marble helpers for tests of agents. */
export { label, labelled } from './testing/label.js'
export { type ScriptedModel, type ScriptedReply, scriptedModel, wordDeltas } from './testing/scriptedModel.js'
