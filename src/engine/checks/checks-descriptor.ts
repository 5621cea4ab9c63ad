/** The checks' settings as VS Code holds them; the CLI's --checks and --fix-until-green are run's own (checks-arguments.ts). */
import * as z from 'zod';
import { defineCapability, defineSetting } from '../capabilities/capability-descriptor.js';

/** Most rounds `agentTeam.fixUntilGreen` allows (the manifest's maximum). */
export const maxFixUntilGreen = 5;

/** Whole rounds from 0 to the maximum; anything else is 0. */
function storedRounds(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? Math.min(value, maxFixUntilGreen) : 0;
}

export const checksDescriptor = defineCapability({
  name: 'checks',
  tools: [],
  settings: {
    checks: defineSetting<boolean>({
      key: 'agentTeam.checks',
      schema: z.boolean(),
      default: true,
      description:
        "Run the repository's own checks (`.agent-team/checks.yaml`, or the `test`, `lint`, `typecheck` and `build` scripts of `package.json`, `Makefile` targets, pytest, `cargo test`, `go test`, plain workflow steps) on every run's proposals before you decide, and on the workspace as it is, to tell what the proposals newly break or fix. They run in the OS sandbox on a scratch copy, only in a trusted folder and once you approved them; the verdict shows above each file of the review and in the run's details. Off in any scope turns them off; **Run Checks Again** still runs them when asked.",
      scope: 'window',
      // Checks are the repository's code: a folder may turn them off, never back on when the user did.
      trust: 'off-wins',
    }),
    fixUntilGreen: defineSetting<number>({
      key: 'agentTeam.fixUntilGreen',
      schema: z.number().int().min(0).max(maxFixUntilGreen),
      default: 0,
      description:
        'When the checks find a new failure, the coordinator may send the work back to the subagent whose proposal caused it, at most this many rounds (each round shows in the tree). 0 turns it off. Read from your user settings only: more rounds cost more.',
      scope: 'application',
      // More rounds cost the user's money: a folder must not raise them.
      trust: 'user',
      read: storedRounds,
    }),
  },
});
