/**
 * The parts of the official MCP SDK the engine uses as a client. Loaded with `import()` only when a role
 * with `mcpServers` starts, from a bundle of its own (scripts/vendor-bundles.mjs), so neither the
 * extension's activation nor a run without MCP pays for it.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
