import type { Clock } from './clock.js';
import { withDeadline } from './deadline.js';
import type { RateLimit } from './rate-limit.js';

/** What {@link RateLimiter.wait} is told about the client it paces. */
export interface RateLimiterWaitOptions {
  /**
   * The client's `retry.maxDelayMs`: a bucket that refills later than this is not
   * waited for. The call is sent at once, and the server's 429 then throws
   * `RateLimitError` under the retry rules, as it would without a limiter.
   */
  readonly maxDelayMs: number;
}

/**
 * Paces Management API calls on the tenant's rate-limit bucket (spec section 8).
 * Every call first awaits `wait`, and every response's `X-RateLimit-*` is passed
 * to `update`, so calls queue while the bucket is known to be empty instead of
 * collecting 429s. The default keeps the state in memory, per client; a shared
 * store (`createRedisRateLimiter` from `idplatform/redis`) paces a fleet of
 * processes as one. Both methods may be sync or async; a limiter that throws
 * never fails a call (the call is sent unpaced).
 */
export interface RateLimiter {
  /**
   * Resolves when a call under `key` may be sent; rejects with the signal's reason when
   * `signal` aborts. Answers `false` when it lets the call go without taking a slot of
   * the bucket (its wait would pass `maxDelayMs`), `true` or nothing when it took one:
   * only a call that holds a slot gives it back with `release`.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a limiter written before `wait` could answer (`async wait(): Promise<void>`) stays assignable.
  wait(key: string, signal?: AbortSignal, options?: RateLimiterWaitOptions): void | boolean | Promise<void | boolean>;
  /** Records the bucket state a response reported for `key`. */
  update(key: string, rateLimit: RateLimit): void | Promise<void>;
  /**
   * Optional: a call `wait` let go under `key` with a slot ended without a rate-limit
   * answer (a network error, a timeout, an abort, a failed token, a response without
   * `X-RateLimit-*`), so it no longer counts as in flight. Without it, such calls
   * count against every next window until as many answers came back. `options.sent`
   * tells whether the call may have reached the server (see {@link RateLimiterReleaseOptions}).
   */
  release?(key: string, options?: RateLimiterReleaseOptions): void | Promise<void>;
}

/** How a call given back with {@link RateLimiter.release} ended. */
export interface RateLimiterReleaseOptions {
  /**
   * `false`: the call never left this process (its token request failed, a header
   * was refused, its caller gave up while it waited), so the server did not count
   * it and its slot goes back to the window. `true`: it may have reached the server
   * (a network error, a timeout, an answer without rate-limit headers), so the slot
   * stays taken in the window the server reported. (Once that window's reset has
   * passed, both leave the count of calls in flight when it passed while any remain,
   * else that of calls sent since: the new window's first answer holds whatever the
   * server counted.) Left out: `true`.
   */
  readonly sent: boolean;
}

/** A released call that may have reached the server (made once: releases allocate nothing). */
export const MAYBE_SENT: RateLimiterReleaseOptions = Object.freeze({ sent: true });

/** A released call that never left this process. */
export const NOT_SENT: RateLimiterReleaseOptions = Object.freeze({ sent: false });

/** The bound of a wait when the caller gives none: the default `retry.maxDelayMs`. */
export const DEFAULT_WAIT_OPTIONS: RateLimiterWaitOptions = Object.freeze({ maxDelayMs: 60_000 });

/**
 * The known state of one bucket. `resetMs` is the server's reset epoch (never a
 * local guess of one). `rolled` means that time has passed (or nothing was
 * reported yet): calls go, and `taken` counts them until a response reports the
 * new window; `staleAnswers` counts those the server answered for the old window
 * (a server whose clock lags), which did not land in the new one, once the calls
 * that were in flight when the window passed (`inFlightAtRoll`) have been answered.
 * `pending` counts calls sent and not yet answered (at most `limit`). `limit` 0
 * means not reported yet.
 */
export interface BucketState {
  limit: number;
  remaining: number;
  resetMs: number;
  rolled: boolean;
  /** When the reset was seen to have passed (0 until it was). */
  rolledAtMs: number;
  taken: number;
  staleAnswers: number;
  inFlightAtRoll: number;
  pending: number;
}

/** A bucket nothing is known about yet. */
export function unknownBucket(): BucketState {
  return { limit: 0, remaining: 0, resetMs: 0, rolled: true, rolledAtMs: 0, taken: 0, staleAnswers: 0, inFlightAtRoll: 0, pending: 0 };
}

/**
 * How long a call waits, once the reported window has passed and a whole bucket
 * (`limit`) of calls has gone into the next one, before it looks again: the first
 * answers of the new window report its `remaining` and reset meanwhile.
 */
export const NEW_WINDOW_POLL_MS = 200;

/**
 * How long after the reset calls beyond the first bucket are held for the new
 * window's first answer: if none comes by then (those calls failed, or a server whose
 * clock lags answered 429 with the old reset), calls go again and the server decides.
 */
export const NEW_WINDOW_HOLD_MS = 1_000;

/**
 * Takes one request from `state` at `nowMs`. Returns 0 when the call may go (its
 * slot is counted), the milliseconds until the server's reset while the bucket is
 * known to be empty, or {@link NEW_WINDOW_POLL_MS} when the reset has passed and
 * `limit` calls already went into the new window, whose state no answer reported yet
 * (so calls queued behind an empty bucket do not all go at the reset), for at most
 * {@link NEW_WINDOW_HOLD_MS} after the reset was seen.
 */
export function takeFromBucket(state: BucketState, nowMs: number): number {
  if (!state.rolled && nowMs >= state.resetMs) {
    state.rolled = true;
    state.rolledAtMs = nowMs;
    state.taken = 0;
    state.staleAnswers = 0;
    state.inFlightAtRoll = state.pending;
  }
  if (state.rolled) {
    const held = state.limit > 0 && state.taken >= state.limit && nowMs - state.rolledAtMs < NEW_WINDOW_HOLD_MS;
    if (held) return NEW_WINDOW_POLL_MS;
    state.taken++;
  } else if (state.remaining > 0) state.remaining--;
  else return state.resetMs - nowMs;
  if (state.limit === 0 || state.pending < state.limit) state.pending++;
  return 0;
}

/**
 * A call counted in flight by {@link takeFromBucket} ended without a rate-limit answer.
 * Before the reset, one that never left (`sent: false`) gives its slot back to the
 * reported window (at most up to `limit`); one that may have reached the server keeps
 * it (the server may have counted it). Once the reset has passed here, either leaves
 * the calls counted since (`taken`), which stand for calls that may still land in the
 * new window uncounted: one that has ended, if the server counted it at all, is in
 * the `remaining` of the new window's first answer, and counting it here too would
 * make the calls after an outage (every one failed, none answered) wait for the next
 * reset. A release after the reset is taken for one of the calls in flight when it
 * passed while any remain (they are not among `taken`).
 */
export function releaseFromBucket(state: BucketState | undefined, { sent }: RateLimiterReleaseOptions = MAYBE_SENT): void {
  if (state === undefined || state.pending === 0) return;
  state.pending--;
  if (state.rolled) {
    // Taken for one of the calls in flight when the window passed, while there are such calls (as an
    // answer is, in `afterStaleAnswer`): those were never among `taken`.
    if (state.inFlightAtRoll > 0) state.inFlightAtRoll--;
    else if (state.taken > 0) state.taken--;
  } else if (!sent) state.remaining = Math.min(state.limit, state.remaining + 1);
  state.inFlightAtRoll = Math.min(state.inFlightAtRoll, state.pending);
}

/** {@link takeFromBucket} on the bucket of `key` in `buckets`, adding an unknown one when there is none. */
export function takeFromBucketOf(buckets: Map<string, BucketState>, key: string, nowMs: number): number {
  let bucket = buckets.get(key);
  if (bucket === undefined) {
    bucket = unknownBucket();
    buckets.set(key, bucket);
  }
  return takeFromBucket(bucket, nowMs);
}

/**
 * The state after a response reported `rateLimit`: the same reset keeps the
 * lower `remaining` (slots reserved by calls in flight stay taken); a later reset
 * opens a new window, less the calls that may land in it uncounted (those that
 * went since the old window ended and were not answered for the old one, or else
 * those still in flight); an earlier reset, or the old window's reset after it has
 * passed, is a stale response and changes only the counts of calls in flight and
 * of stale answers.
 */
export function updateBucket(state: BucketState | undefined, rateLimit: RateLimit): BucketState {
  const resetMs = rateLimit.reset.getTime();
  const { limit } = rateLimit;
  const pending = Math.max(0, (state?.pending ?? 0) - 1);
  if (state !== undefined && resetMs <= state.resetMs) {
    if (state.rolled) return afterStaleAnswer(state, resetMs === state.resetMs, pending);
    if (resetMs < state.resetMs) return { ...state, pending };
    return { ...state, limit, remaining: Math.min(state.remaining, rateLimit.remaining), pending };
  }
  const remaining = state?.rolled
    ? Math.min(rateLimit.remaining, limit - (state.taken - state.staleAnswers))
    : rateLimit.remaining - pending;
  return {
    limit,
    remaining: Math.max(0, remaining),
    resetMs,
    rolled: false,
    rolledAtMs: 0,
    taken: 0,
    staleAnswers: 0,
    inFlightAtRoll: 0,
    pending,
  };
}

/**
 * The state after an answer for a window that has passed here (`ofLastWindow`: the
 * one just passed, else an older one). It is taken for the answer of a call in
 * flight when the window passed while such calls remain; after those, an answer for
 * the last window is a call that went since and that the server (its clock lagging)
 * counted in the old window, not the new.
 */
function afterStaleAnswer(state: BucketState, ofLastWindow: boolean, pending: number): BucketState {
  if (state.inFlightAtRoll > 0) return { ...state, inFlightAtRoll: Math.min(state.inFlightAtRoll - 1, pending), pending };
  const staleAnswers = ofLastWindow ? Math.min(state.taken, state.staleAnswers + 1) : state.staleAnswers;
  return { ...state, staleAnswers, pending };
}

/** The most times one call waits for the bucket (another caller may take the slot a wait freed). */
export const MAX_WAIT_ROUNDS = 64;

/**
 * The default {@link RateLimiter}: bucket states in memory, so one process paces
 * itself on `remaining` and concurrent calls stop sending once the bucket is
 * empty, until the reset the server reported.
 */
export function memoryRateLimiter(clock: Clock): RateLimiter {
  const buckets = new Map<string, BucketState>();
  /**
   * Waits while the bucket stays empty; `true` once a slot is taken. Bounded: after
   * MAX_WAIT_ROUNDS waits, or maxDelayMs in all, `false`: the call is sent without a
   * slot and the server decides.
   */
  const waitForSlot = async (key: string, firstDelayMs: number, signal: AbortSignal | undefined, maxDelayMs: number) => {
    let waited = 0;
    let delayMs = firstDelayMs;
    for (let round = 0; round < MAX_WAIT_ROUNDS; round++) {
      await clock.sleep(delayMs, signal);
      waited += delayMs;
      delayMs = takeFromBucketOf(buckets, key, clock.now());
      if (delayMs <= 0) return true;
      if (waited + delayMs > maxDelayMs) return false;
    }
    return false;
  };
  return {
    // Synchronous while the bucket has room (every call but those that must wait): no promise on the hot path.
    wait(key, signal, { maxDelayMs } = DEFAULT_WAIT_OPTIONS) {
      const delayMs = takeFromBucketOf(buckets, key, clock.now());
      if (delayMs <= 0) return true;
      if (delayMs > maxDelayMs) return false;
      return waitForSlot(key, delayMs, signal, maxDelayMs);
    },
    update(key, rateLimit) {
      buckets.set(key, updateBucket(buckets.get(key), rateLimit));
    },
    release(key, options) {
      releaseFromBucket(buckets.get(key), options);
    },
  };
}

/** The key of a Management API's bucket: one per tenant API, whoever the client is. */
export function rateLimitKey(baseUrl: string): string {
  return `idplatform:ratelimit:${baseUrl}`;
}

/**
 * Calls `limiter.wait` and answers whether the call holds a slot of the bucket (only
 * such a call gives one back): `true` or `false` at once when the limiter answered at
 * once, else a promise of it. A limiter failure lets the call go unpaced without a
 * slot, and so does a limiter that has not answered within `answerWithinMs` (a
 * stalled store: the call is not left pending for good); only an abort is thrown.
 */
export function waitForRateLimit(
  limiter: RateLimiter,
  key: string,
  signal: AbortSignal | undefined,
  options: RateLimiterWaitOptions,
  answerWithinMs: number,
): boolean | Promise<boolean> {
  let waiting: ReturnType<RateLimiter['wait']>;
  try {
    waiting = limiter.wait(key, signal, options);
  } catch {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return false;
  }
  if (typeof waiting !== 'object' || waiting === null) return waiting !== false;
  // An abort ends the wait at once, even when the limiter does not listen to the signal (a stalled
  // store). `settled` never rejects: nothing is left unhandled.
  // A slot the call stopped waiting for goes back once, whichever comes first: the slot, or the
  // abort or deadline (`gaveUp`: whether the call is then sent).
  let gaveUp: RateLimiterReleaseOptions | undefined;
  let granted = false;
  const settled = Promise.resolve(waiting).then(
    (answer) => {
      const holdsSlot = answer !== false;
      if (holdsSlot && gaveUp) releaseRateLimitSlot(limiter, key, gaveUp);
      else granted = holdsSlot;
      return holdsSlot;
    },
    () => false,
  );
  return withDeadline(settled, signal, answerWithinMs, 'the rate limiter did not answer').catch((reason: unknown) => {
    // Aborted: the call is never sent. Else the deadline passed: the call goes unpaced (without a slot).
    gaveUp = signal?.aborted ? NOT_SENT : MAYBE_SENT;
    if (granted) releaseRateLimitSlot(limiter, key, gaveUp);
    if (signal?.aborted) throw reason;
    return false;
  });
}

/**
 * Passes a response's rate limit to `limiter.update`, or, for an answer without one,
 * releases the call's slot when it holds one ({@link releaseRateLimitSlot}); the
 * limiter's failures are ignored (the call has its answer).
 */
export function reportRateLimit(limiter: RateLimiter, key: string, rateLimit: RateLimit | undefined, holdsSlot: boolean): void {
  if (rateLimit === undefined) {
    if (holdsSlot) releaseRateLimitSlot(limiter, key, MAYBE_SENT);
    return;
  }
  try {
    ignoreRejection(limiter.update(key, rateLimit));
  } catch {
    // A synchronous failure is ignored the same way.
  }
}

/** A call the limiter let go ended without a rate-limit answer: `limiter.release`, its failures ignored. */
export function releaseRateLimitSlot(limiter: RateLimiter, key: string, options: RateLimiterReleaseOptions): void {
  try {
    ignoreRejection(limiter.release?.(key, options));
  } catch {
    // A synchronous failure is ignored the same way.
  }
}

/** Ignores the rejection of a limiter method's answer, when it is a promise. */
function ignoreRejection(answer: void | Promise<void>): void {
  if (answer !== undefined) Promise.resolve(answer).catch(() => {});
}
