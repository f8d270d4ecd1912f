import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { managementError } from './responses.js';

/** Where `emulator.listen()` serves. */
export interface ListenOptions {
  /**
   * Loopback interface to bind: `127.0.0.1` (the default), another `127.0.0.0/8`
   * address, `::1` or `localhost`. Any other host throws `TypeError`: the emulator's
   * default credentials are public, and the SDK sends `http:` to loopback hosts only.
   */
  readonly host?: string;
  /** Port; default 0 (a free port chosen by the system). */
  readonly port?: number;
}

/** The hosts `listen` may bind: `localhost`, `::1` and `127.0.0.0/8`. */
const LOOPBACK_HOST = /^(?:localhost|::1|127(?:\.\d{1,3}){3})$/;

/** A running loopback server of the emulator. */
export interface EmulatorServer {
  /**
   * The origin to send requests to, e.g. `http://127.0.0.1:53124`: what `createAccessToken`
   * takes as `origin`, and an `AuthenticationClient`'s `baseUrl`.
   */
  readonly url: string;
  /** What a `ManagementClient` takes as `baseUrl`: `{url}/api/v2`. (Its `domain` option means https, so a loopback server has none.) */
  readonly baseUrl: string;
  /** Stops accepting connections, closes open ones, and resolves once the server is down; calling it again waits for the same close. */
  close(): Promise<void>;
}

/**
 * Serves `handle` on a node:http server.
 * Each IncomingMessage becomes a fetch `Request` whose body streams from the socket.
 * Its signal aborts when the client goes away.
 * Each `Response` is written back chunk by chunk, waiting for `drain` when the socket is full.
 */
export async function serve(handle: (request: Request) => Promise<Response>, options: ListenOptions = {}): Promise<EmulatorServer> {
  const { host = '127.0.0.1', port = 0 } = options;
  if (typeof host !== 'string' || !LOOPBACK_HOST.test(host)) {
    throw new TypeError(`listen: host must be a loopback address (127.0.0.0/8, ::1 or localhost), not ${JSON.stringify(host)}`);
  }
  const server = createServer((incoming, outgoing) => {
    void respond(incoming, outgoing, handle, hostAndPort());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  function hostAndPort(): string {
    const address = server.address() as AddressInfo;
    return `${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  }
  const url = `http://${hostAndPort()}`;
  let closed: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}/api/v2`,
    // Once: a second call (an afterEach and an afterAll, say) waits for the same close.
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      })),
  };
}

/**
 * The one method node:http hands over that a fetch `Request` cannot carry.
 * Its parser refuses `TRACK` with 400, and routes `CONNECT` elsewhere.
 * This one is answered 405 here, as the handler answers a method a path does not serve.
 */
const UNREPRESENTABLE_METHOD = 'TRACE';

async function respond(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  handle: (request: Request) => Promise<Response>,
  fallbackHost: string,
): Promise<void> {
  const method = incoming.method ?? 'GET';
  if (method === UNREPRESENTABLE_METHOD) {
    await writeResponse(managementError(405, `${method} is not allowed here`, 'method_not_allowed'), outgoing, false);
    return;
  }
  const aborter = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) aborter.abort(new Error('The client closed the connection'));
  });
  let response: Response;
  try {
    response = await handle(toRequest(incoming, fallbackHost, aborter.signal));
  } catch (error) {
    if (aborter.signal.aborted || outgoing.headersSent) {
      outgoing.destroy();
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    outgoing.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    outgoing.end(JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message }));
    return;
  }
  // A body the emulator refused unread (too large) leaves the connection unusable.
  if (!incoming.complete) outgoing.shouldKeepAlive = false;
  await writeResponse(response, outgoing, incoming.method === 'HEAD');
}

function toRequest(incoming: IncomingMessage, fallbackHost: string, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] as string;
    if (!name.startsWith(':')) headers.append(name, raw[index + 1] as string);
  }
  const host = incoming.headers.host;
  const authority = host !== undefined && /^(?:[\w.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$/i.test(host) ? host : fallbackHost;
  // A path is joined as text, not resolved: `//api/v2/…` (an extra slash of a URL join) is a path, not
  // a host, as `handle` reads it. Anything else (an absolute-form target) is resolved against the authority.
  const target = incoming.url ?? '/';
  const url = target.startsWith('/') ? new URL(`http://${authority}${target}`) : new URL(target, `http://${authority}`);
  const method = incoming.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (hasBody) {
    init.body = streamOf(incoming);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/** A pull-based web stream over a Node readable: a chunk is read only when the consumer asks. */
function streamOf(readable: IncomingMessage): ReadableStream<Uint8Array> {
  const iterator: AsyncIterator<Buffer> = readable[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

async function writeResponse(response: Response, outgoing: ServerResponse, head: boolean): Promise<void> {
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers.push([name, value]);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  outgoing.writeHead(response.status, response.statusText || undefined, headers.flat());
  if (head || response.body === null) {
    await response.body?.cancel();
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) throw new Error('The client closed the connection');
      if (!outgoing.write(value)) await drained(outgoing);
    }
    outgoing.end();
  } catch {
    await reader.cancel().catch(() => undefined);
    outgoing.destroy();
  }
}

/** Resolves when the socket can take more data, or rejects when it closed first. */
function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onDrain = () => {
      outgoing.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      outgoing.off('drain', onDrain);
      reject(new Error('The client closed the connection'));
    };
    outgoing.once('drain', onDrain);
    outgoing.once('close', onClose);
  });
}
