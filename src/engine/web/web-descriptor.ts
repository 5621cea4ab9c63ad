/** The web capability's vocabulary and settings: `WebFetch`, and the sites it reads without asking. */
import * as z from 'zod';
import { defineCapability, defineSetting, InvalidSettingError } from '../capabilities/capability-descriptor.js';
import { storedStringList } from '../capabilities/stored-values.js';
import { readableRule } from './domain-rules.js';

/** Each `--allow-domain`, refused when it names no site (a URL, a path): a typo must not widen nothing silently. */
function siteRules(texts: readonly string[]): string[] {
  const unreadable = texts.find((pattern) => !readableRule(pattern));
  if (unreadable !== undefined)
    throw new InvalidSettingError(
      `--allow-domain ${unreadable}: not a site; give a host (docs.example.com), a host and port (docs.example.com:8080), *.example.com or *`,
    );
  return [...texts];
}

export const webDescriptor = defineCapability({
  name: 'web',
  tools: [{ name: 'WebFetch', purpose: 'read web pages from sites you allow' }],
  settings: {
    allowedDomains: defineSetting<string[]>({
      key: 'agentTeam.allowedDomains',
      schema: z.array(z.string()),
      default: [],
      description:
        'Sites agents read with `WebFetch` without asking: `example.com` (on the default port, 443 or 80), `example.com:8080` (that port), `*.example.com` (its subdomains too), `*` (every public site, every port). A private or loopback address (`127.0.0.1`, `localhost`) is read only when named as such. Any other site asks you first. Read from your user settings only.',
      scope: 'application',
      // A folder must not open its own agents' way out to the network: only the user's settings count.
      trust: 'user',
      read: storedStringList,
      cli: [
        {
          flag: '--allow-domain',
          example: 'docs.example.com',
          kind: 'repeatable',
          argument: '<host>',
          parse: siteRules,
          help: 'a site agents may read with WebFetch (repeatable; *.example.com for its subdomains; host:port for a port other than 443/80, which a host alone names; a private address such as 127.0.0.1 only by name); any other site is refused',
        },
      ],
    }),
  },
});
