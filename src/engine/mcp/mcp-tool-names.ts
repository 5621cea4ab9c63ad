/**
 * The names an MCP server's tools get among a role's tools: `mcp__<server>__<tool>` (Claude Code's
 * convention), made to fit every provider's rule for tool names (`^[A-Za-z0-9_-]{1,64}$`): other
 * characters become `_`, and a name that is too long keeps its start and ends in a short hash of the
 * whole, so two long names never collide.
 */
import { createHash } from 'node:crypto';

const maxLength = 64;

export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${server}__${tool}`;
  const safe = full.replace(/[^A-Za-z0-9_-]/g, '_');
  if (safe === full && safe.length <= maxLength) return safe;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
  return `${safe.slice(0, maxLength - hash.length - 1)}_${hash}`;
}
