/**
 * Checks from GitHub Actions workflows: only steps whose `run:` is a plain command. A step with an
 * expression (`${{ … }}`: its meaning depends on the event, the matrix, secrets), a `uses:` action, an
 * `env:`, a `working-directory:`, a `shell:` or several lines is not something we can run exactly as CI
 * does: it is skipped, with why. Install steps (`npm ci`, `pip install`) are not checks either.
 */
import { parse } from 'yaml';
import type { CheckDefinition, CheckDiscoveryNote } from './types.js';

/** Commands that prepare, not check: skipped silently (the scratch copy has the dependencies already). */
const setupCommand =
  /^(npm (ci|install)|pnpm (i|install)|yarn( install)?|bun install|pip3? install|python3? -m pip install|poetry install|cargo fetch|go mod download|corepack)\b/;
const simpleKeys = new Set(['name', 'run', 'id', 'if', 'timeout-minutes', 'continue-on-error']);

export function workflowChecks(source: string, text: string): { checks: CheckDefinition[]; notes: CheckDiscoveryNote[] } {
  let workflow: unknown;
  try {
    workflow = parse(text, { maxAliasCount: 0 });
  } catch {
    return { checks: [], notes: [{ source, reason: 'it is not YAML' }] };
  }
  const jobs = (workflow as { jobs?: unknown } | null)?.jobs;
  if (typeof jobs !== 'object' || jobs === null) return { checks: [], notes: [] };
  const checks: CheckDefinition[] = [];
  const notes: CheckDiscoveryNote[] = [];
  for (const [jobName, job] of Object.entries(jobs as Record<string, unknown>)) {
    const steps = (job as { steps?: unknown } | null)?.steps;
    if (!Array.isArray(steps)) continue;
    for (const step of steps as unknown[]) {
      if (typeof step !== 'object' || step === null) continue;
      const run = (step as Record<string, unknown>).run;
      if (typeof run !== 'string') continue;
      const command = run.trim();
      const where = `${source} (job ${jobName})`;
      const refusal = refusalOf(step as Record<string, unknown>, command);
      if (refusal === 'setup') continue;
      if (refusal !== undefined) {
        notes.push({ source: where, reason: `step \`${command.split('\n')[0].slice(0, 80)}\` skipped: ${refusal}` });
        continue;
      }
      if (checks.some((check) => check.command === command)) continue;
      checks.push({ name: command, command, source, sourceKind: 'github-workflow' });
    }
  }
  return { checks, notes };
}

function refusalOf(step: Record<string, unknown>, command: string): string | undefined {
  if (command.includes('${{')) return 'it uses an expression (${{ }}), whose value only CI knows';
  if (command.includes('\n')) return 'it has several lines';
  if (setupCommand.test(command)) return 'setup';
  const extra = Object.keys(step).filter((key) => !simpleKeys.has(key));
  if (extra.length > 0) return `it sets ${extra.join(', ')}, which a plain command would not`;
  if (typeof step.if === 'string') return 'it runs only under a condition (if:)';
  return undefined;
}
