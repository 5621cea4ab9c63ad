/** `agent-team mcp` answered by the official MCP SDK's client, with the real model SDKs over the mock provider. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hangingStream, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, priorTurns } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { textOfToolResult, useMcpClient } from './mcp-client.js';

const world = useCliWorld({ 'parser.ts': 'export const parse = (text: string) => new Date(text);\n' });
const { connect } = useMcpClient(world);

const textOf = textOfToolResult;

describe('agent-team mcp', () => {
  it('lists delegate, task_output, task_stop and apply_hunks, and answers a foreground delegation', async () => {
    world.server.respondWith(() => textTurn('The parser is in parser.ts:1.'));
    const mcp = await connect();
    const tools = await mcp.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['apply_hunks', 'delegate', 'task_output', 'task_stop']);
    const result = await mcp.callTool({
      name: 'delegate',
      arguments: { subagent_type: 'researcher', description: 'Find the parser', prompt: 'Where is the parser?' },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('Task t1 (researcher: "Find the parser") completed.');
    expect(textOf(result)).toContain('The parser is in parser.ts:1.');
  });

  it('returns proposed edits as diffs and never applies them', async () => {
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Edit', input: { file_path: 'parser.ts', old_string: 'new Date(text)', new_string: 'safeDate(text)' } }])
        : textTurn('Proposed a safer parse.'),
    );
    const mcp = await connect();
    const result = await mcp.callTool({
      name: 'delegate',
      arguments: { subagent_type: 'refactorer', description: 'Make it safe', prompt: 'Use safeDate in parser.ts' },
    });
    expect(textOf(result)).toContain('Proposed by t1 (refactorer), not applied:');
    expect(textOf(result)).toContain('+export const parse = (text: string) => safeDate(text);');
    expect(await readFile(path.join(world.workspace, 'parser.ts'), 'utf8')).toContain('new Date(text)');
  });

  it('starts a coordinator run in the background, reads it with task_output, and stops a held one with task_stop', async () => {
    world.server.respondWith((request) =>
      agentOf(request) === 'coordinator' && priorTurns(request) === 0 && request.lastMessageText === 'Hold on'
        ? hangingStream({ text: ['Thinking…'] })
        : textTurn('Coordinated answer.'),
    );
    const mcp = await connect();
    const started = await mcp.callTool({
      name: 'delegate',
      arguments: { subagent_type: 'coordinator', description: 'Answer', prompt: 'Answer this', run_in_background: true },
    });
    expect(textOf(started)).toContain('Task t1 started in the background');
    const output = await mcp.callTool({ name: 'task_output', arguments: { task_id: 't1' } });
    expect(textOf(output)).toMatch(/Task t1 \(coordinator: "Answer"\) (is still running|completed)/);
    const held = await mcp.callTool({
      name: 'delegate',
      arguments: { subagent_type: 'coordinator', description: 'Hold', prompt: 'Hold on', run_in_background: true },
    });
    expect(textOf(held)).toContain('Task t2 started in the background');
    await world.server.waitForRequest(1);
    const stopped = await mcp.callTool({ name: 'task_stop', arguments: { task_id: 't2' } });
    expect(textOf(stopped)).toContain('was stopped by the user');
    const unknown = await mcp.callTool({ name: 'task_output', arguments: { task_id: 't9' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('There is no task t9.');
  });
});
