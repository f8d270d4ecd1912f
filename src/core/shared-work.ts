import { withDeadline } from './deadline.js';

/**
 * One piece of work that concurrent calls share (a token request, a key-set fetch).
 * Each call waits for it with its own signal and deadline ({@link SharedWork.wait});
 * when the last call waiting for it is aborted (its caller gave up on it) before the
 * work settled, the work's signal aborts and `onAbandoned` runs: its retry loop stops,
 * no request is sent that nobody awaits, and nothing keeps the process alive for it.
 * A call that only ran out of time leaves the work going: its retry (or the next
 * call) takes the outcome, and a token request behind a lock another process held
 * still comes.
 */
export class SharedWork<T> {
  /** The work's outcome. */
  readonly promise: Promise<T>;
  readonly #controller = new AbortController();
  readonly #onAbandoned: () => void;
  #waiting = 0;
  #settled = false;

  /** Starts the work with the signal it is given up with. */
  constructor(start: (signal: AbortSignal) => Promise<T>, onAbandoned: () => void) {
    this.#onAbandoned = onAbandoned;
    this.promise = start(this.#controller.signal);
    // Marked before any waiter hears of the outcome (this reaction is the promise's first).
    this.promise.then(
      () => {
        this.#settled = true;
      },
      () => {
        this.#settled = true;
      },
    );
  }

  /** The outcome, waited for as long as `signal` and `timeoutMs` allow (`TimeoutError(timeoutMessage)`). */
  wait(signal: AbortSignal | undefined, timeoutMs: number | undefined, timeoutMessage: string): Promise<T> {
    this.#waiting++;
    const waited = withDeadline(this.promise, signal, timeoutMs, timeoutMessage);
    waited.then(
      () => {
        this.#waiting--;
      },
      () => {
        this.#waiting--;
        if (this.#waiting > 0 || this.#settled || !signal?.aborted) return;
        this.#controller.abort(new DOMException('Every call waiting for it was aborted', 'AbortError'));
        this.#onAbandoned();
      },
    );
    return waited;
  }
}
