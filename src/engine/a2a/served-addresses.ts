/**
 * The A2A addresses this process serves (`agent-team serve --a2a`), so that a remote role whose `a2a_url`
 * is one of them is refused before anything is sent: the request would come straight back to this server
 * and start the same role again. The hop count (hop-count.ts) stops longer loops; this catches the direct
 * one at once. Process-wide on purpose: what matters is which ports this process listens on, whichever
 * engine asks.
 */

const served = new Set<string>();

/** Loopback names are one machine: `localhost:8080` and `127.0.0.1:8080` are the same server. */
const loopbackNames: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** The server an address reaches, as compared here: `loopback:<port>` or `<host>:<port>`; undefined when it is not one. */
function serverKey(address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  const host = url.hostname.toLowerCase();
  return `${loopbackNames.has(host) ? 'loopback' : host}:${port}`;
}

/** Records that this process serves `address` until the returned function is called. */
export function serveAddress(address: string): () => void {
  const key = serverKey(address);
  if (key === undefined) return () => undefined;
  // Listening on every address (`--host 0.0.0.0`) is listening on loopback too.
  const port = key.slice(key.lastIndexOf(':') + 1);
  const keys = /^(0\.0\.0\.0|\[::\]):/.test(key) ? [key, `loopback:${port}`] : [key];
  for (const each of keys) served.add(each);
  return () => keys.forEach((each) => served.delete(each));
}

/** True when `address` reaches a server of this very process. */
export function servedHere(address: string): boolean {
  const key = serverKey(address);
  return key !== undefined && served.has(key);
}
