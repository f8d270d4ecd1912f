import { type Clock, MAX_TIMER_MS, systemClock, withDeadline } from '../core/clock.js';
import { ConfigurationError } from '../core/errors.js';
import { isValidTimeout } from '../core/options.js';
import type { RedisClientLike } from './client.js';
import { redisCommandSender } from './client.js';

/** How long a Redis command may take before the local fallback answers instead. Default of `commandTimeoutMs`. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;
/**
 * After a command failed or timed out, how long the adapter answers locally
 * without asking Redis; the next command after that tries Redis again.
 */
export const REDIS_RETRY_AFTER_MS = 5_000;

/**
 * `commandTimeoutMs` as given, when it is a usable timeout: more than 0 and at most 2^31 − 1 ms (`isValidTimeout`).
 * Else throws `ConfigurationError`.
 * A timer longer than that fires at once, and so does one of 0 or less.
 * Every command would then count as timed out.
 * The adapter would quietly answer from memory for good, with no sharing across processes.
 */
export function checkedCommandTimeout(commandTimeoutMs: unknown): number {
  if (!isValidTimeout(commandTimeoutMs)) {
    throw new ConfigurationError(`commandTimeoutMs must be a number of milliseconds more than 0 and at most ${MAX_TIMER_MS}`);
  }
  return commandTimeoutMs;
}

/**
 * Runs a Redis command, or answers locally when Redis can't. With `cleanup`, the
 * command is sent even while the adapter answers locally after a failure (a lock's
 * release: left undone, it would hold the other processes until it expires).
 */
export type RedisOrLocal = <T>(
  command: readonly [string, ...(string | number)[]],
  read: (reply: unknown) => T,
  local: () => T,
  cleanup?: boolean,
) => Promise<T>;

/**
 * Wraps `client` so that no Redis failure reaches a call.
 * `local()` answers instead (per-process behaviour) when the client is not connected, the command fails, or it takes longer than `timeoutMs`.
 * The call then goes on.
 * After a failure or a timeout, commands are answered locally at once for {@link REDIS_RETRY_AFTER_MS}.
 * So a stalled Redis costs one `timeoutMs`, not one per command of every call.
 */
export function redisOrLocal(client: RedisClientLike, timeoutMs: number, clock: Pick<Clock, 'now'> = systemClock): RedisOrLocal {
  const { send, isReady } = redisCommandSender(client);
  let localUntil = Number.NEGATIVE_INFINITY;
  const answerLocally = <T>(local: () => T): T => {
    localUntil = clock.now() + REDIS_RETRY_AFTER_MS;
    return local();
  };
  return async (command, read, local, cleanup = false) => {
    if (!isReady() || (!cleanup && clock.now() < localUntil)) return local();
    try {
      return read(await withDeadline(send(...command), undefined, timeoutMs, `Redis ${command[0]} timed out`));
    } catch {
      return answerLocally(local);
    }
  };
}
