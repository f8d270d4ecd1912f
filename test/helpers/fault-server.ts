import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the fault server received it. */
export interface ReceivedRequest {
  readonly method: string;
  /** Path and query as sent. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** What a behaviour gets: the request (body read) and the raw response to answer, or not, as it likes. */
export interface FaultContext {
  readonly request: ReceivedRequest;
  readonly res: ServerResponse;
  readonly socket: Socket;
}

/** How the server answers one request: any behaviour at all, on the real socket. */
export type Behaviour = (context: FaultContext) => void | Promise<void>;

/** A scriptable HTTP server on 127.0.0.1 for fault tests. */
export interface FaultServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Every request received, oldest first. */
  readonly requests: ReceivedRequest[];
  /** Queues behaviours for the next requests whose path starts with `prefix`; others get the fallback. */
  next(prefix: string, ...behaviours: Behaviour[]): void;
  /** Drops queued behaviours and the request log. */
  reset(): void;
  /** Closes the server, destroying open (e.g. hanging) connections. */
  close(): Promise<void>;
}

/**
 * Starts a node:http server on 127.0.0.1 and a free port. Each request is answered
 * by the first queued behaviour whose prefix matches its path, else by `fallback`.
 */
export async function startFaultServer(fallback: Behaviour): Promise<FaultServer> {
  const requests: ReceivedRequest[] = [];
  let queue: { prefix: string; behaviour: Behaviour }[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ReceivedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(request);
    const index = queue.findIndex(({ prefix }) => request.url.startsWith(prefix));
    const behaviour = index === -1 ? fallback : (queue.splice(index, 1)[0]?.behaviour ?? fallback);
    try {
      await behaviour({ request, res, socket: req.socket });
    } catch {
      req.socket.destroy();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    next: (prefix, ...behaviours) => {
      queue.push(...behaviours.map((behaviour) => ({ prefix, behaviour })));
    },
    reset: () => {
      queue = [];
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// ── Behaviours ────────────────────────────────────────────────────────────────

/** Answers `status` with a JSON body and extra headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Behaviour {
  return ({ res }) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };
}

/** Answers `status` with a raw text body of the given content type. */
export function text(status: number, body: string, contentType = 'text/plain', headers: Record<string, string> = {}): Behaviour {
  return ({ res }) => {
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
    res.end(body);
  };
}

/** Closes the connection before any response header. */
export const resetBeforeHeaders: Behaviour = ({ socket }) => {
  socket.destroy();
};

/** Sends headers and part of a JSON body, then closes the connection. */
export const resetMidBody: Behaviour = ({ res, socket }) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '10000' });
  res.write('[{"id":"uinv_');
  setImmediate(() => socket.destroy());
};

/** Accepts the request and never answers (the server's `close` ends it). */
export const neverAnswer: Behaviour = () => {};

/** Sends headers, then one byte every 50 ms, never finishing (until the client gives up or the server closes). */
export const dribble: Behaviour = ({ res, socket }) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else res.write(' ');
  }, 50);
  socket.on('close', () => clearInterval(timer));
};
