import { type Tool } from '../../src/engine/agent/tool.js';

/** Runs a tool the way the agent loop does: the input is validated by the tool's schema first. */
export async function runTool(tools: Tool[], name: string, input: unknown, signal = new AbortController().signal): Promise<string> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool named ${name}`);
  return tool.execute(tool.inputSchema.parse(input), { signal, toolCallId: `call-${name}` });
}
