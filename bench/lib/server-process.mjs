/** Starts the benchmark server (lib/server.mjs) in its own process and resolves to its port and a stop function. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('./server.mjs', import.meta.url));

/** Forks the loopback server; resolves once it listens. */
export function startServer() {
  const child = fork(SERVER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`benchmark server exited (${code})`)));
    child.once('message', (message) => {
      child.removeAllListeners('exit');
      resolve({ port: message.port, stop: () => child.kill() });
    });
  });
}
