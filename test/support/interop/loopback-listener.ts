/**
 * An HTTP listener on 127.0.0.1, port 0, for the interop agents: its origin is known before the agent
 * card is written, and it closes by itself (open streams included) when the current test ends.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface LoopbackListener {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly origin: string;
  readonly port: number;
  /** Sets what answers requests (until then: 503), so the app can be built knowing the origin. */
  serve(handler: RequestListener): void;
  close(): Promise<void>;
}

export async function listenOnLoopback(beforeClose?: () => void): Promise<LoopbackListener> {
  let handler: RequestListener | undefined;
  const server = createServer((request, response) => {
    if (handler) return handler(request, response);
    response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      beforeClose?.();
      server.closeAllConnections();
      server.close(() => resolve());
    });
    return closed;
  };
  onTestFinished(close);
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    serve(next) {
      handler = next;
    },
    close,
  };
}

/** A port on 127.0.0.1 where nothing listens (one just freed): what a card names behind a port-forward. */
export async function unusedLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
