import { withDeadline } from './deadline.js';

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
  #waiting = 0;
  #settled = false;

  /** `resumeAfter`: the failure of earlier work that every call gave up (see {@link SharedAttempt.resumeAfter}). */
  constructor(run: (attempt: SharedAttempt) => Promise<T>, resumeAfter?: unknown) {
    this.result = run({ giveUp: this.#giveUp.signal, resumeAfter });
    const settle = () => {
      this.#settled = true;
    };
    this.result.then(settle, settle);
  }

  /** Whether every call gave the work up before it ended (it may have ended since). */
  get givenUp(): boolean {
    return this.#giveUp.signal.aborted;
  }

  /** Whether every call gave the work up before it ended, and it has not ended yet: it starts nothing more. */
  get abandoned(): boolean {
    return this.#giveUp.signal.aborted && !this.#settled;
  }

  /**
   * This work while calls may still wait for it; once it is {@link abandoned}, new work
   * that takes this one's result if its attempt in flight still brings one, and else
   * runs `run` afresh, unless that new work was given up meanwhile too (nobody would
   * wait for what `run` brings; the next call starts its own).
   */
  continued(run: (attempt: SharedAttempt) => Promise<T>): SharedWork<T> {
    if (!this.abandoned) return this;
    return new SharedWork(({ giveUp }) =>
      this.result.catch((error: unknown) => {
        if (giveUp.aborted) throw error;
        return run({ giveUp, resumeAfter: error });
      }),
    );
  }

  /**
   * The result, for one call: rejects with the signal's reason when `signal` aborts,
   * or with `TimeoutError(timeoutMessage)` after `timeoutMs` (the work goes on for the
   * other calls). When the last call waiting leaves this way, the work is given up.
   */
  wait(signal: AbortSignal | undefined, timeoutMs: number | undefined, timeoutMessage: string): Promise<T> {
    this.#waiting++;
    const waited = withDeadline(this.result, signal, timeoutMs, timeoutMessage);
    const leave = () => {
      this.#waiting--;
      if (this.#waiting === 0 && !this.#settled) {
        this.#giveUp.abort(new DOMException('Every call waiting for this work gave it up', 'AbortError'));
      }
    };
    waited.then(leave, leave);
    return waited;
  }
}
