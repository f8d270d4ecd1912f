import { type Clock, MAX_TIMER_MS } from './clock.js';
import { withDeadline } from './deadline.js';
import type { RetryContext, SharedRetry } from './retry.js';
import { whenAborted } from './signal.js';

/** What shared work is run with. */
export interface SharedAttempt {
  /** Aborts once no call waits for the work any more: start nothing more (no retry, no further polling). */
  readonly giveUp: AbortSignal;
  /**
   * The failure of the given-up work this work takes over from (see
   * {@link SharedWork.continued}): a wait the server demanded after it (a 429's
   * reset) is waited out before the first request, as that work's retry would have.
   */
  readonly resumeAfter?: unknown;
}

/** What shared work starts from, and how long it can still take once given up. */
export interface SharedWorkOptions {
  /** The failure of earlier work that every call gave up (see {@link SharedAttempt.resumeAfter}). */
  readonly resumeAfter?: unknown;
  /**
   * The longest the work can still take once given up (its steps in flight, each
   * bounded by a timeout), read on `clock`: work that takes it over waits that long
   * for what it brings, then runs afresh. A runtime may never settle work whose
   * request has ended (workerd drops its I/O and timers), and a client kept at
   * module scope must not wait for it for good. Without it, the wait is unbounded.
   */
  readonly settlesWithinMs?: number | undefined;
  /** The clock `settlesWithinMs` is read on (required with it). */
  readonly clock?: Pick<Clock, 'now'> | undefined;
}

/**
 * Work that concurrent calls share (a token request, a key-set fetch), carried on
 * only while one of them still waits for it. `run` gets a signal, `giveUp` (see
 * {@link SharedAttempt}), that aborts once every call's wait has ended (its `signal` aborted or its `timeoutMs`
 * passed) before the work did: the work then starts nothing more (no retry, no
 * further look for another process's token), and the timers of those waits are
 * cleared. An attempt already sent is not aborted: it ends on its own, bounded by
 * its timeout, and what it brings is kept for the calls that come next (see
 * {@link SharedWork.continued}), so that calls with short deadlines never starve
 * one another of a token none of them waited long enough for.
 */
export class SharedWork<T> {
  /** What the work brings; rejections are handled here, whoever waits. */
  readonly result: Promise<T>;
  readonly #giveUp = new AbortController();
  /**
   * Whether `#giveUp` was aborted, kept apart from it: workerd ties a controller to the
   * request that made it, and touching it from another (a client kept at module scope,
   * used by the next request) throws.
   */
  #givenUp = false;
  /** When every call gave the work up (on the options' clock). */
  #givenUpAt = 0;
  #waiting = 0;
  #settled = false;
  readonly #options: SharedWorkOptions;
  /**
   * Work that took over given-up work (see {@link continued}) while it waits for that
   * work's result: until when (on the options' clock), and `lapse`, which ends the wait
   * (it then runs afresh). Every call that waits sets a timer of its own for it, and
   * the time is checked whenever work is taken over: workerd drops the timers of a
   * request that has ended with it, so no one call's timer can be relied on.
   */
  #takeOver: { readonly until: number; readonly lapse: () => void } | undefined;

  constructor(run: (attempt: SharedAttempt) => Promise<T>, options: SharedWorkOptions = {}) {
    this.#options = options;
    this.result = run({ giveUp: this.#giveUp.signal, resumeAfter: options.resumeAfter });
    const settle = () => {
      this.#settled = true;
    };
    this.result.then(settle, settle);
  }

  /** Whether every call gave the work up before it ended (it may have ended since). */
  get givenUp(): boolean {
    return this.#givenUp;
  }

  /** Whether every call gave the work up before it ended, and it has not ended yet: it starts nothing more. */
  get abandoned(): boolean {
    return this.#givenUp && !this.#settled;
  }

  /**
   * This work while calls may still wait for it; once it is {@link abandoned}, new work
   * (with the same options) that takes this one's result if its attempt in flight
   * still brings one, and else runs `run` afresh, unless that new work was given up
   * meanwhile too (nobody would wait for what `run` brings; the next call starts its
   * own). With `settlesWithinMs`, the new work waits for that result until
   * `settlesWithinMs` after this work was given up, or, when this work was itself
   * still waiting for the work it took over, until the time that wait had; then `run`
   * runs afresh. So a chain of calls that give up soon does not push that time on.
   */
  continued(run: (attempt: SharedAttempt) => Promise<T>): SharedWork<T> {
    if (!this.abandoned) return this;
    const { settlesWithinMs, clock } = this.#options;
    const until = this.#takeOver?.until ?? (settlesWithinMs === undefined ? undefined : this.#givenUpAt + settlesWithinMs);
    let lapse = () => {};
    const lapsed = new Promise<never>((_resolve, reject) => {
      lapse = () => reject(new Error(`The work taken over did not end within ${settlesWithinMs} ms of being given up`));
    });
    const previous = until === undefined || clock === undefined ? this.result : Promise.race([this.result, lapsed]);
    const next = new SharedWork(
      ({ giveUp }) =>
        previous.catch((error: unknown) => {
          if (giveUp.aborted) throw error;
          return run({ giveUp, resumeAfter: error });
        }),
      { settlesWithinMs, clock },
    );
    if (until === undefined || clock === undefined) return next;
    next.#takeOver = { until, lapse };
    const waitEnded = () => {
      next.#takeOver = undefined;
    };
    previous.then(waitEnded, waitEnded);
    if (clock.now() >= until) lapse();
    return next;
  }

  /**
   * The result, for one call: rejects with the signal's reason when `signal` aborts,
   * or with `TimeoutError(timeoutMessage)` after `timeoutMs` (the work goes on for the
   * other calls). When the last call waiting leaves this way, the work is given up.
   */
  wait(signal: AbortSignal | undefined, timeoutMs: number | undefined, timeoutMessage: string): Promise<T> {
    this.#waiting++;
    const waited = withDeadline(this.result, signal, timeoutMs, timeoutMessage);
    const lapseTimer = this.#lapseTimer();
    const leave = () => {
      clearTimeout(lapseTimer);
      this.#waiting--;
      if (this.#waiting === 0 && !this.#settled) {
        this.#givenUp = true;
        this.#givenUpAt = this.#options.clock?.now() ?? 0;
        try {
          this.#giveUp.abort(new DOMException('Every call waiting for this work gave it up', 'AbortError'));
        } catch {
          // workerd, from a request other than the one that started the work: that one has ended, and its work with it.
        }
      }
    };
    waited.then(leave, leave);
    return waited;
  }

  /** While this work waits for the work it took over: a timer of this call's own that ends that wait in time. */
  #lapseTimer(): ReturnType<typeof setTimeout> | undefined {
    const takeOver = this.#takeOver;
    const clock = this.#options.clock;
    if (takeOver === undefined || clock === undefined) return undefined;
    const leftMs = takeOver.until - clock.now();
    if (leftMs <= 0) {
      takeOver.lapse();
      return undefined;
    }
    return leftMs > MAX_TIMER_MS ? undefined : setTimeout(takeOver.lapse, leftMs);
  }
}

/**
 * Until when the server demanded a wait after a failure that was not waited out
 * because its work was given up (epoch ms, by the failure): for the work that takes over.
 */
const demandedUntil = new WeakMap<object, number>();

/** Whether `failure` came with a wait the server demanded that was given up: work that takes over waits out the rest. */
export function leftAWait(failure: unknown): boolean {
  return typeof failure === 'object' && failure !== null && demandedUntil.has(failure);
}

/**
 * The retry loop's waits for one run of shared work: no retry once `giveUp` aborts
 * (a wait under way ends, and the last attempt's error stands, keeping the time the
 * server demanded for the work that takes over); before the first attempt, what is
 * left of the wait demanded after `resumeAfter`.
 */
export function sharedRetry({ giveUp, resumeAfter }: SharedAttempt): SharedRetry {
  return {
    get stopped() {
      return giveUp.aborted;
    },
    async beforeFirstAttempt(context) {
      const until = typeof resumeAfter === 'object' && resumeAfter !== null ? demandedUntil.get(resumeAfter) : undefined;
      const ms = until === undefined ? 0 : until - context.clock.now();
      if (ms <= 0) return;
      try {
        await sleepUnlessStopped(ms, giveUp, context);
      } catch (reason) {
        // Given up again: the failure stands, still holding its wait, for whatever takes over next.
        throw giveUp.aborted && !context.signal?.aborted ? resumeAfter : reason;
      }
    },
    async waitToRetry(wait, error, context) {
      const start = context.clock.now();
      const givenUp = () => {
        if (wait.mandatedMs > 0 && typeof error === 'object' && error !== null) demandedUntil.set(error, start + wait.mandatedMs);
        return false;
      };
      if (giveUp.aborted) return givenUp();
      try {
        await sleepUnlessStopped(wait.ms, giveUp, context);
      } catch (reason) {
        if (context.signal?.aborted || !giveUp.aborted) throw reason;
        return givenUp();
      }
      return true;
    },
  };
}

/**
 * Sleeps `ms`, ended by the caller's signal or by `giveUp` (rejecting with its
 * reason). A controller of its own joins them rather than `AbortSignal.any`, which
 * ignores a signal-like object from another realm (`checkSignal` accepts one) and
 * leaves an entry on a long-lived signal in Node 20.
 */
async function sleepUnlessStopped(ms: number, giveUp: AbortSignal, { clock, signal }: RetryContext): Promise<void> {
  if (signal?.aborted) throw signal.reason;
  if (giveUp.aborted) throw giveUp.reason;
  const either = new AbortController();
  const stops = [signal, giveUp].map((each) => each && whenAborted(each, () => either.abort(each.reason)));
  try {
    await clock.sleep(ms, either.signal);
  } finally {
    for (const stop of stops) stop?.();
  }
}
