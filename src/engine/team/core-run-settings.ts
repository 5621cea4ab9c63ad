/** The engine's own limits of a run (the limits table's), its money budget and how long its history is kept. */
import * as z from 'zod';
import { defineSetting } from '../capabilities/capability-descriptor.js';
import { type LimitName, limitRanges } from '../limits.js';
import { readLimit } from '../limit-reading.js';
import { builtOnFirstUse } from '../util/built-on-first-use.js';

/** A limit of the table as a setting: its range from the table, a stored value out of it read as `readLimit` does. */
function limitSetting(name: LimitName, description: string) {
  const range = limitRanges[name];
  // Its schema is built when first read (the manifest's tests, the CLI's help): `read` below needs none, and
  // the core loads these descriptors at its start (B5 in docs/performance.md).
  const schema = builtOnFirstUse(() => {
    const number = range.whole ? z.number().int() : z.number();
    return Number.isFinite(range.maximum) ? number.min(range.minimum).max(range.maximum) : number.min(range.minimum);
  });
  return defineSetting<number>({
    key: `agentTeam.${name}`,
    get schema() {
      return schema();
    },
    default: range.default,
    description,
    scope: 'window',
    trust: 'any',
    read: (stored) => readLimit(name, stored),
  });
}

export const coreRunSettings = {
  maxConcurrentTasks: limitSetting(
    'maxConcurrentTasks',
    'How many tasks do work at once (talk to the model, run tools); more wait in a queue. A task that is only waiting, for a subagent or for its background subagents, does not count, so nested delegation never blocks itself. A change applies at once: more lets waiting tasks start; fewer stops nothing and lets the next ones wait.',
  ),
  autoBackgroundSeconds: limitSetting(
    'autoBackgroundSeconds',
    'How long an agent waits for a subagent it started in the foreground before the subagent moves to the background (the agent goes on and hears of the result later). `0`: at once.',
  ),
  maxDepth: limitSetting(
    'maxDepth',
    'How deep delegation may nest: the coordinator is depth 0, its subagents 1, and so on. `0`: the coordinator cannot delegate.',
  ),
  maxSubtasks: limitSetting(
    'maxSubtasks',
    '**Plan and Delegate**: how many sub-tasks one plan may have at most. The planner plans again, one level down, until `#agentTeam.maxDepth#`.',
  ),
  budgetTokens: limitSetting(
    'budgetTokens',
    'How many tokens (input + output, the coordinator and every subagent together) one run may spend. When a run spends more, its whole tree stops (reason: budget), keeping what the agents wrote so far; each row shows its spend against the budget. `0`: no budget.',
  ),
  confirmFanOutAbove: limitSetting(
    'confirmFanOutAbove',
    'When one step of an agent would start more subagents than this at once, Agent Team asks you first; if you deny, none starts and the agent is told to start fewer.',
  ),
  budgetUsd: defineSetting<number>({
    key: 'agentTeam.budgetUsd',
    schema: z.number().min(0),
    default: 0,
    description:
      "How many US dollars one run may spend (the coordinator and every subagent together), at the models' prices (`agentTeam.modelPrices` over the built-in list). When a run spends more, its whole tree stops (reason: budget), keeping what the agents wrote so far. Tokens of a model with no known price count nothing against it: each row's tooltip says when a cost is only a lower bound. `0`: no money budget. User settings only.",
    scope: 'application',
    // A folder must not loosen a money budget: only the user's value counts.
    trust: 'user',
    read: (stored) => (typeof stored === 'number' && Number.isFinite(stored) && stored > 0 ? stored : 0),
  }),
  historyRetentionDays: limitSetting(
    'historyRetentionDays',
    "How many days a run is kept in this workspace's run history (the task tree, the agents' conversations and their proposals, in VS Code's workspace storage), so follow-ups and Resume work after a reload. Older runs are removed, oldest first, when the window opens and after each run; a run still working is never removed. **Agent Team: Clear History** removes finished runs at once.",
  ),
};
