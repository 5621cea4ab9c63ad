/**
 * Which sites agents may fetch from without asking. A rule names a host and, optionally, a port:
 * `example.com` (that host on its scheme's default port: 443 for https, 80 for http), `example.com:8080`
 * (that port, either scheme), `*.example.com` (its subdomains and itself, default port; `*.example.com:8080`
 * on that port), `*` (every public host, every port). A port is part of the site: a service on another
 * port of an allowed host (a database's HTTP console, a dev server) is another program. IPv6 literals are
 * written `::1`, `[::1]` or `[::1]:8080`. A private or loopback address is reached only when its literal
 * (`127.0.0.1`, `localhost`, `[::1]`) is named as such: a wildcard never reaches one, nor does a public name
 * that resolves to one. A rule that cannot be read (`example.com:http`) allows nothing.
 */

/** A host name as the rules compare it: lower case, without a trailing dot or IPv6 brackets. */
export function normalHost(host: string): string {
  const lower = host.trim().toLowerCase().replace(/\.$/, '');
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}

/** A rule as read: its host (`*`, `*.x`, or a name or address) and its port, when it names one. */
interface SiteRule {
  host: string;
  port?: number;
}

/** The rule `pattern` states, or undefined when it states none we can read. */
function readRule(pattern: string): SiteRule | undefined {
  const text = pattern.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return withPort(bracketed[1]!, bracketed[2]);
  const colons = text.split(':').length - 1;
  // Two or more colons without brackets: an IPv6 address, which then has no port.
  if (colons !== 1) return text === '' ? undefined : { host: normalHost(text) };
  const [host, port] = text.split(':') as [string, string];
  return /^\d+$/.test(port) ? withPort(host, port) : undefined;
}

function withPort(host: string, port: string | undefined): SiteRule | undefined {
  if (port === undefined) return { host: normalHost(host) };
  const number = Number(port);
  return Number.isInteger(number) && number >= 1 && number <= 65_535 ? { host: normalHost(host), port: number } : undefined;
}

/** True when `pattern` states a rule (else it allows nothing): for a clear error where the user types one. */
export function readableRule(pattern: string): boolean {
  const rule = readRule(pattern);
  return rule !== undefined && rule.host !== '' && !/[/@\s]/.test(rule.host);
}

/** The port `url` reaches: its own, or its scheme's default. */
function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}

/** True when `rule`'s port admits `url`: the one it names, or (naming none) the scheme's default only. */
function portMatches(rule: SiteRule, url: URL): boolean {
  return rule.port === undefined ? url.port === '' : rule.port === portOf(url);
}

/** True when the site of `url` (its host and port) is allowed by one of `patterns`. */
export function domainAllowed(url: URL, patterns: readonly string[]): boolean {
  const target = normalHost(url.hostname);
  return patterns.some((pattern) => {
    const rule = readRule(pattern);
    if (!rule) return false;
    if (rule.host === '*') return rule.port === undefined || rule.port === portOf(url);
    if (!portMatches(rule, url)) return false;
    if (rule.host.startsWith('*.')) return target === rule.host.slice(2) || target.endsWith(rule.host.slice(1));
    return target === rule.host;
  });
}

/** True when the site of `url` is named literally (no wildcard) by one of `patterns`: the only way to a private address. */
export function namedLiterally(url: URL, patterns: readonly string[]): boolean {
  const target = normalHost(url.hostname);
  return patterns.some((pattern) => {
    const rule = readRule(pattern);
    return rule !== undefined && rule.host === target && portMatches(rule, url);
  });
}

/** The pattern "Always" stores for a site, and the name a refusal gives it: the host, and the port when not the default. */
export function domainPattern(url: URL): string {
  const host = normalHost(url.hostname);
  const shown = host.includes(':') ? `[${host}]` : host;
  return url.port === '' ? shown : `${shown}:${url.port}`;
}

/** True when `a` and `b` are the same site: the same host on the same port. */
export function sameSite(a: URL, b: URL): boolean {
  return normalHost(a.hostname) === normalHost(b.hostname) && portOf(a) === portOf(b);
}
