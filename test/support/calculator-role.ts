/** A role file whose role has the test MCP server (mcp-test-server.mjs) as its calculator, for MCP tests. */
import path from 'node:path';

export const mcpTestServer = path.resolve(__dirname, 'mcp-test-server.mjs');

/** The role file's text; the server writes its pid to `pidFile`. */
export function calculatorRoleFile(pidFile: string, instruction = 'You add numbers.', marker?: string): string {
  return [
    '---',
    'name: calculator',
    'description: Adds numbers with its calculator server.',
    'tools: [Read]',
    'mcpServers:',
    '  calc:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${[mcpTestServer, ...(marker ? [`--marker=${marker}`] : [])].map((arg) => JSON.stringify(arg)).join(', ')}]`,
    '    env:',
    `      MCP_PID_FILE: ${JSON.stringify(pidFile)}`,
    '---',
    instruction,
  ].join('\n');
}
