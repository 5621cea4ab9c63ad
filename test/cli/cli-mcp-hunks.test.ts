/**
 * `agent-team mcp`'s `apply_hunks`, answered through the official MCP SDK's client: a finished run's diffs
 * come with numbered hunks; one hunk is written byte for byte while the other stays proposed, renumbered;
 * a bad number is an error that writes nothing; a rejected hunk is gone from the proposal, and the run's
 * diffs no longer show it. `agent-team mcp` keeps no run history, and the answer says there is no undo.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { priorTurns } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { textOfToolResult, useMcpClient } from './mcp-client.js';

const original = Array.from({ length: 20 }, (_, index) => `line ${index + 1}\n`).join('');
const second = original.replace('line 18\n', 'line eighteen\n');
const proposed = second.replace('line 2\n', 'line two\n');

const world = useCliWorld({ 'numbers.txt': original });
const { connect } = useMcpClient(world);

const textOf = textOfToolResult;
const disk = () => readFile(path.join(world.workspace, 'numbers.txt'), 'utf8');

describe('agent-team mcp apply_hunks', () => {
  it('writes the chosen hunk, keeps the rest proposed and renumbered, refuses a bad number, and rejects', async () => {
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Write', input: { file_path: 'numbers.txt', content: proposed } }])
        : textTurn('Spelled out two numbers.'),
    );
    const mcp = await connect();
    const tools = await mcp.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain('apply_hunks');
    const delegated = await mcp.callTool({
      name: 'delegate',
      arguments: { subagent_type: 'refactorer', description: 'Spell out', prompt: 'Spell out 2 and 18 in numbers.txt' },
    });
    expect(textOf(delegated)).toMatch(/^@@ -1,5 \+1,5 @@ hunk 1$/m);
    expect(textOf(delegated)).toMatch(/^@@ -15,6 \+15,6 @@ hunk 2$/m);

    const bad = await mcp.callTool({ name: 'apply_hunks', arguments: { task_id: 't1', path: 'numbers.txt', apply: [3] } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('numbers.txt has no hunk 3');
    expect(await disk()).toBe(original);

    const applied = await mcp.callTool({ name: 'apply_hunks', arguments: { task_id: 't1', path: 'numbers.txt', apply: [2] } });
    expect(applied.isError, textOf(applied)).toBeFalsy();
    expect(textOf(applied)).toContain('applied: numbers.txt: applied 1 of 2 changes.');
    expect(textOf(applied)).toContain('Still proposed by t1, renumbered:');
    expect(textOf(applied)).toMatch(/^@@ -1,5 \+1,5 @@ hunk 1$/m);
    // agent-team mcp keeps no run history, so it says the write has no undo rather than promise one.
    expect(textOf(applied)).toContain('No restore point was kept (this server keeps no run history)');
    expect(await disk()).toBe(second);

    const rejected = await mcp.callTool({ name: 'apply_hunks', arguments: { task_id: 't1', path: 'numbers.txt', reject: [1] } });
    expect(textOf(rejected)).toContain('Nothing of numbers.txt is proposed any more.');
    expect(await disk()).toBe(second);
    const output = await mcp.callTool({ name: 'task_output', arguments: { task_id: 't1' } });
    expect(textOf(output)).not.toContain('+line two');
  });
});
