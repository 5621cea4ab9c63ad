/** `Now`: the current date and time, in the time zone the user sets (agentTeam.nowTimeZone, --now-time-zone). */
import * as z from 'zod';
import { defineTool } from '../agent/tool.js';
import { defineCapability, defineSetting, InvalidSettingError } from '../capabilities/capability-descriptor.js';

/** A time zone Intl knows; anything else is refused with what it takes. */
function timeZone(texts: readonly string[]): string {
  const zone = texts.at(-1)!;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    throw new InvalidSettingError(`--now-time-zone takes an IANA time zone such as Europe/Paris, not "${zone}"`);
  }
  return zone;
}

export const nowDescriptor = defineCapability({
  name: 'now',
  tools: [{ name: 'Now', purpose: 'tell the current date and time' }],
  settings: {
    nowTimeZone: defineSetting<string>({
      key: 'agentTeam.nowTimeZone',
      schema: z.string(),
      default: 'UTC',
      description: 'The time zone the `Now` tool tells the time in (an IANA name such as `Europe/Paris`).',
      scope: 'window',
      trust: 'any',
      cli: [
        {
          flag: '--now-time-zone',
          kind: 'value',
          argument: '<zone>',
          example: 'Europe/Paris',
          parse: timeZone,
          help: 'the time zone the Now tool tells the time in (default: UTC)',
        },
      ],
    }),
  },
  create: (settings) => ({
    name: 'now',
    grant: (task) =>
      (task.agent.tools as readonly string[]).includes('Now')
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
