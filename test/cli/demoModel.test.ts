/**
 * The offline demo model of `npm start`: `delete <path>` makes it call `delete_file`, the demo's
 * tool that needs approval, which only pretends to delete.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom, from, type ObservableInput } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { demoReply } from '../../src/cli/demoModel.js'
import { deleteFileTool } from '../../src/cli/demoTools.js'
import type { Message, ModelRequest } from '../../src/index.js'

const request = (step: number, messages: readonly Message[]) =>
  ({ agentId: 'a', turn: 1, step, messages, tools: [] }) as unknown as ModelRequest
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] })

describe('the demo model and its tools', () => {
  it('delete <path> calls delete_file with that path; other prompts look their topic up in the notes', () => {
    expect(demoReply(request(1, [user('please delete notes.txt.')]))).toEqual({
      text: 'Deleting "notes.txt" needs your approval.',
      call: { name: 'delete_file', args: { path: 'notes.txt' } },
    })
    expect(demoReply(request(1, [user('what is steering')])).call).toEqual({
      name: 'notes',
      args: { topic: 'what is steering' },
    })
  })

  it('the next step reports a denied call as denied, with its reason', () => {
    const denied: Message = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'delete_file-1-1',
          content: [{ type: 'text', text: 'Denied: the user did not approve this call. Reason: mine' }],
          isError: true,
          code: 'DENIED',
        },
      ],
    }
    const assistant: Message = { role: 'assistant', content: [{ type: 'text', text: 'Deleting' }] }
    expect(demoReply(request(2, [user('delete x'), assistant, denied])).text).toBe(
      'I left it alone. Denied: the user did not approve this call. Reason: mine Anything else?',
    )
  })

  it('delete_file needs approval and, approved, touches no file', async () => {
    const tool = deleteFileTool({ wordMs: 0, toolMs: 0 })
    expect(tool.needsApproval).toBe(true)
    const dir = mkdtempSync(join(tmpdir(), 'demo-delete-'))
    try {
      const path = join(dir, 'keep.txt')
      writeFileSync(path, 'still here')
      const result = await firstValueFrom(
        from(tool.execute({ path }, {} as never) as ObservableInput<string>),
      )
      expect(result).toContain('a pretend delete')
      expect(existsSync(path)).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
