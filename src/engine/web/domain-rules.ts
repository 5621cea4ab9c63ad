/**
 * Which hosts agents may fetch from without asking: `example.com` (that host), `*.example.com` (its
 * subdomains and itself), `*` (every public host). A private or loopback address is reached only when its
 * literal (`127.0.0.1`, `localhost`, `[::1]`) is named as such: a wildcard never reaches one, nor does a
 * public name that resolves to one.
 */

/** A host name as the rules compare it: lower case, without a trailing dot or IPv6 brackets. */
export function normalHost(host: string): string {
  const lower = host.trim().toLowerCase().replace(/\.$/, '');
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}

/** True when `host` is allowed by one of `patterns`. */
export function domainAllowed(host: string, patterns: readonly string[]): boolean {
  const target = normalHost(host);
  return patterns.some((pattern) => {
    const rule = normalHost(pattern);
    if (rule === '*') return true;
    if (rule.startsWith('*.')) return target === rule.slice(2) || target.endsWith(rule.slice(1));
    return target === rule;
  });
}

/** True when `host` is named literally (no wildcard) by one of `patterns`: the only way to a private address. */
export function namedLiterally(host: string, patterns: readonly string[]): boolean {
  const target = normalHost(host);
  return patterns.some((pattern) => normalHost(pattern) === target);
}

/** The pattern "Always" stores for a host: the host itself. */
export function domainPattern(host: string): string {
  return normalHost(host);
}
