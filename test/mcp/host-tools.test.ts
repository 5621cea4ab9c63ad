/**
 * The host's registered tools (VS Code's) for roles naming `vscode__<tool>` / `vscode__*`: only those, under
 * names every provider takes, a named tool the host lacks said to the agent, results capped.
 */
import { describe, expect, it } from 'vitest';
import type { CapabilityTask } from '../../src/engine/capabilities/capability.js';
import { hostToolName, hostToolsCapability, type HostToolPort } from '../../src/engine/mcp/host-tools.js';

const task = (serverTools: string[]) =>
  ({ agent: { role: 'finder', tools: [], mayDelegate: false, reach: [], depth: 1, serverTools } }) as unknown as CapabilityTask;

function port(results: Record<string, string> = {}): HostToolPort & { calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = [];
  return {
    calls,
    list: () => [
      {
        name: 'copilot_findFiles',
        description: 'Finds files.',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
      },
      { name: 'ext.odd name', description: 'Odd.' },
    ],
    invoke: async (name, input) => (calls.push([name, input]), results[name] ?? 'ok'),
  };
}

describe("the host's registered tools", () => {
  it('offers only what the role names; vscode__* offers all; none named, nothing granted', async () => {
    const capability = hostToolsCapability(port());
    expect(await capability.grant(task(['mcp__calc__*']))).toBeUndefined();
    expect((await capability.grant(task(['vscode__copilot_findFiles'])))!.tools!.map((tool) => tool.name)).toEqual([
      'vscode__copilot_findFiles',
    ]);
    expect((await capability.grant(task(['vscode__*'])))!.tools!.map((tool) => tool.name)).toEqual([
      'vscode__copilot_findFiles',
      hostToolName('ext.odd name'),
    ]);
    expect(hostToolName('ext.odd name')).toMatch(/^vscode__ext_odd_name_[0-9a-f]{8}$/);
  });

  it('says which named tool the host lacks, and calls a tool by its own name with the input, result capped', async () => {
    const host = port({ copilot_findFiles: 'x'.repeat(150_000) });
    const grant = (await hostToolsCapability(host).grant(task(['vscode__copilot_findFiles', 'vscode__gone'])))!;
    expect(grant.notices).toEqual(["VS Code has no tool 'gone' registered (the role names vscode__gone)."]);
    const result = await grant.tools![0]!.execute({ query: '*.ts' }, { signal: new AbortController().signal, toolCallId: 'c1' } as never);
    expect(host.calls).toEqual([['copilot_findFiles', { query: '*.ts' }]]);
    expect(String(result)).toContain('[cut: the result had 150000 characters]');
    expect(grant.tools![0]!.jsonSchema).toEqual({ type: 'object', properties: { query: { type: 'string' } } });
  });
});
