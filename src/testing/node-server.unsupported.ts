import type { EmulatorServer, ListenOptions } from './node-server.js';

/**
 * What `#node-server` (package.json `imports`) resolves to outside Node: browsers,
 * workers, and bundles made for them. `emulator.listen()` needs `node:http`; there,
 * serve the emulator with `createMswHandlers` from `idplatform/testing/msw`
 * (`setupWorker` from `msw/browser`). Keeping `node:http` out of those bundles lets
 * them build.
 */
export async function serve(_handle: (request: Request) => Promise<Response>, _options?: ListenOptions): Promise<EmulatorServer> {
  throw new TypeError(
    'emulator.listen() starts a loopback HTTP server and needs Node (node:http); elsewhere, serve the emulator with createMswHandlers from idplatform/testing/msw',
  );
}
