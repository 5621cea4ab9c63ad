/** Scratch: the `Now` tool, the current date and time in the time zone the user chose (proof of docs/architecture.md's guide). */
import * as z from 'zod';
import { defineTool } from '../agent/tool.js';
import { defineCapability, defineSetting } from '../capabilities/capability-descriptor.js';

export const nowDescriptor = defineCapability({
  name: 'now',
  tools: [{ name: 'Now', purpose: 'tell the current date and time' }],
  settings: {
    nowTimeZone: defineSetting({
      key: 'agentTeam.nowTimeZone',
      schema: z.string(),
      default: 'UTC',
      description: 'The time zone `Now` tells the time in (an IANA name such as `Europe/Paris`). `UTC` by default.',
      scope: 'window',
      trust: 'any',
      cli: [
        {
          flag: '--now-time-zone',
          kind: 'value',
          argument: '<zone>',
          example: 'Europe/Paris',
          parse: ([zone]) => zone ?? 'UTC',
          help: 'the time zone Now tells the time in (default UTC)',
        },
      ],
    }),
  },
  create: (settings) => ({
    name: 'now',
    grant: (task) =>
      task.agent.tools.includes('Now')
        ? {
            tools: [
              defineTool({
                name: 'Now',
                description: 'The current date and time.',
                inputSchema: z.object({}),
                readOnly: true,
                execute: async () => new Date().toLocaleString('en-GB', { timeZone: settings().nowTimeZone }),
              }),
            ],
          }
        : undefined,
  }),
});
