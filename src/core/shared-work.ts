import { withDeadline } from './deadline.js';

/**
 * One piece of work that concurrent calls share (a token request, a key-set fetch).
 * Each call waits for it with its own signal and deadline ({@link SharedWork.wait});
 * when every call that waited has given up before the work settled, the work's
 * signal aborts and `onAbandoned` runs: its retry loop stops, no request is sent
 * that nobody awaits, and nothing keeps the process alive for it.
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
        if (this.#waiting > 0 || this.#settled) return;
        this.#controller.abort(new DOMException('Every call waiting for it gave up', 'AbortError'));
        this.#onAbandoned();
      },
    );
    return waited;
  }
}
