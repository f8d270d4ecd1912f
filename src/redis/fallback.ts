import type { RedisClientLike } from './client.js';
import { redisCommandSender } from './client.js';

/** How long a Redis command may take before the local fallback answers instead. Default of `commandTimeoutMs`. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;

const TIMED_OUT = Symbol('timed out');

/** Runs a Redis command, or answers locally when Redis can't. */
export type RedisOrLocal = <T>(
  command: readonly [string, ...(string | number)[]],
  read: (reply: unknown) => T,
  local: () => T,
) => Promise<T>;

/**
 * Wraps `client` so that no Redis failure reaches a call: when the client is not
 * connected, the command fails, or it takes longer than `timeoutMs`, `local()`
 * answers instead (per-process behaviour), and the call goes on.
 */
export function redisOrLocal(client: RedisClientLike, timeoutMs: number): RedisOrLocal {
  const { send, isReady } = redisCommandSender(client);
  return async (command, read, local) => {
    if (!isReady()) return local();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const sent = send(...command);
    sent.catch(() => {});
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
    });
    try {
      const reply = await Promise.race([sent, timedOut]);
      return reply === TIMED_OUT ? local() : read(reply);
    } catch {
      return local();
    } finally {
      clearTimeout(timer);
    }
  };
}
