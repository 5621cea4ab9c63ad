/**
 * `WebFetch {url, prompt?}`: an agent reads a web page (documentation, an issue) as Markdown. HTTP(S)
 * only; a site (host and port) no pattern allows is asked about (the extension) or refused (the CLI); private and
 * loopback addresses only when their literal is named; at most 2 MB read and 30 s spent; a redirect to
 * another host is reported, not followed, so that host is judged as itself.
 */
import * as z from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { type Tool, defineTool } from '../agent/tool.js';
import { systemClock } from '../clock.js';
import { withDeadline } from '../deadline.js';
import { linkAbort } from '../abort.js';
import { domainAllowed, domainPattern, namedLiterally, normalHost, sameSite } from './domain-rules.js';
import { BlockedAddressError, requestPage } from './page-request.js';
import { pageText } from './page-text.js';
import type { WebHost } from './web-host.js';

export const maxPageBytes = 2 * 1024 * 1024;
export const fetchTimeoutMs = 30_000;
const maxRedirects = 5;

const webFetchInput = builtOnFirstUse(() =>
  z.object({
    url: z.string().trim().min(1).max(4_000).describe('The http(s) address of the page.'),
    prompt: z
      .string()
      .max(2_000)
      .optional()
      .describe('What you want from the page, in a few words (shown to the user if they are asked to allow the site).'),
  }),
);

export interface WebFetchToolOptions {
  host: WebHost;
  taskId: string;
  role: string;
  /** Shows the task as waiting while the user decides (TaskWorkContext.waitForUser). */
  waitForUser<T>(waitedFor: () => Promise<T>): Promise<T>;
}

export function createWebFetchTool(options: WebFetchToolOptions): Tool<z.infer<ReturnType<typeof webFetchInput>>> {
  return defineTool({
    name: 'WebFetch',
    description:
      'Read a web page (documentation, an issue, a changelog) as Markdown. http(s) only; the user decides which sites may be read, so a site they have not allowed may be refused. A redirect to another site is reported: fetch that address if you still want it.',
    inputSchema: webFetchInput(),
    readOnly: true,
    // A person may be asked first; the fetch has its own deadline.
    timeoutMs: Infinity,
    async execute(input, context) {
      let url = parseAddress(input.url);
      const allowedOnce = await allowHost(options, url, context.signal);
      for (let hop = 0; ; hop++) {
        const patterns = [...options.host.allowedDomains(), ...(allowedOnce ? [domainPattern(url)] : [])];
        const response = await fetchWithDeadline(options.host, url, namedLiterally(url, patterns), context.signal);
        if (response.redirect === undefined)
          return describePage(
            url,
            response.status,
            await pageText(response.body, response.contentType),
            response.contentType,
            response.cut,
          );
        const next = parseAddress(response.redirect);
        // Another host, or another port of it that no rule allows (an http → https upgrade of an allowed site is followed).
        if (!sameSite(next, url) && !(normalHost(next.hostname) === normalHost(url.hostname) && domainAllowed(next, patterns)))
          return `${url.toString()} redirects to ${next.toString()}, another site; call WebFetch with that address if you want it.`;
        if (hop >= maxRedirects) throw new Error(`${input.url} redirected more than ${maxRedirects} times`);
        url = next;
      }
    },
  });
}

function parseAddress(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`"${text}" is not a web address; give a full http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`only http and https addresses are fetched, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new Error('an address with a user name or password in it is not fetched');
  return url;
}

/** True when the user allowed this host for this fetch only; throws when nobody allows it. */
async function allowHost(options: WebFetchToolOptions, url: URL, signal: AbortSignal): Promise<boolean> {
  if (domainAllowed(url, options.host.allowedDomains())) return false;
  const ask = options.host.ask;
  const host = domainPattern(url);
  if (!ask) throw new Error(`Not fetched: ${host} is not a site the user allows. ${options.host.howToAllow}`);
  const decision = await options.waitForUser(() => ask({ taskId: options.taskId, role: options.role, host, url: url.toString() }, signal));
  if (decision === 'deny')
    throw new Error(`Not fetched: the user did not allow reading ${host}. Go on without it, or say why you need it.`);
  return decision === 'once';
}

async function fetchWithDeadline(host: WebHost, url: URL, privateAllowed: boolean, signal: AbortSignal) {
  const link = linkAbort(signal);
  try {
    return await withDeadline(requestPage(url, { signal: link.signal, maxBytes: maxPageBytes, privateAllowed }), {
      clock: host.clock ?? systemClock,
      timeoutMs: fetchTimeoutMs,
      signal,
      expire: () => {
        link.abort(new Error('timed out'));
        throw new Error(`${url.host} sent no whole page within ${fetchTimeoutMs / 1000} s`);
      },
    });
  } catch (error) {
    if (error instanceof BlockedAddressError)
      throw new Error(
        `Not fetched: ${error.message}; such an address is read only when the user names it literally (e.g. 127.0.0.1) among the allowed sites.`,
      );
    throw error;
  } finally {
    link.dispose();
  }
}

function describePage(url: URL, status: number, text: string | undefined, contentType: string, cut: boolean): string {
  if (status >= 400) return `${url.toString()} answered ${status}.${text ? `\n\n${text.slice(0, 2_000)}` : ''}`;
  if (text === undefined) return `${url.toString()} is not a text page (${contentType || 'no content type'}); it is not shown.`;
  const note = cut ? `\n\n[The page was cut: only its first ${maxPageBytes / (1024 * 1024)} MB were read.]` : '';
  return `# ${url.toString()}\n\n${text}${note}`;
}
