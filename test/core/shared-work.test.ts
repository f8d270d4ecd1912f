import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimeoutError } from '../../src/core/errors.js';
import { SharedWork } from '../../src/core/shared-work.js';
import { deferred } from '../helpers/deferred.js';

/** Work that ends when the test says, and the `giveUp` signal it was given. */
function controlledWork() {
  const outcome = deferred<string>();
  let giveUp!: AbortSignal;
  const work = new SharedWork((attempt) => {
    giveUp = attempt.giveUp;
    return outcome.promise;
  });
  return { work, outcome, giveUp: () => giveUp };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** One call waits for `work`, then aborts: with nobody else waiting, the work is given up. */
async function leave(work: SharedWork<string>) {
  const controller = new AbortController();
  work.wait(controller.signal, undefined, '').catch(() => {});
  controller.abort();
  await turn();
}

describe('SharedWork', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is given up when the last call waiting for it aborts, not before', async () => {
    const { work, giveUp } = controlledWork();
    const first = new AbortController();
    const second = new AbortController();
    const waits = [work.wait(first.signal, undefined, ''), work.wait(second.signal, undefined, '')];
    for (const wait of waits) wait.catch(() => {});
    first.abort(new Error('first gave up'));
    await turn();
    expect(giveUp().aborted).toBe(false);
    second.abort(new Error('second gave up'));
    await turn();
    expect(giveUp().aborted).toBe(true);
    expect(work.abandoned).toBe(true);
    await expect(waits[1]).rejects.toThrow('second gave up');
  });

  it('is never given up while a call without a signal or timeout waits', async () => {
    const { work, giveUp } = controlledWork();
    const controller = new AbortController();
    void work.wait(undefined, undefined, '');
    work.wait(controller.signal, undefined, '').catch(() => {});
    controller.abort();
    await turn();
    expect(giveUp().aborted).toBe(false);
  });

  it('counts a call whose own timeout passed as gone', async () => {
    vi.useFakeTimers();
    const { work, giveUp } = controlledWork();
    const wait = work.wait(undefined, 100, 'no answer within 100 ms');
    wait.catch(() => {});
    await vi.advanceTimersByTimeAsync(100);
    await expect(wait).rejects.toBeInstanceOf(TimeoutError);
    expect(giveUp().aborted).toBe(true);
  });

  it('is not given up by calls that leave after it ended', async () => {
    const { work, outcome, giveUp } = controlledWork();
    const controller = new AbortController();
    const wait = work.wait(controller.signal, undefined, '');
    outcome.resolve('token');
    expect(await wait).toBe('token');
    controller.abort();
    await turn();
    expect(giveUp().aborted).toBe(false);
    expect(work.abandoned).toBe(false);
  });

  it('continues as itself while calls may wait for it', () => {
    const { work } = controlledWork();
    const run = vi.fn(() => Promise.resolve('again'));
    expect(work.continued(run)).toBe(work);
    expect(run).not.toHaveBeenCalled();
  });

  it('once given up, continues with what its attempt in flight still brings, running nothing more', async () => {
    const { work, outcome } = controlledWork();
    await leave(work);
    const run = vi.fn(() => Promise.resolve('again'));
    const next = work.continued(run);
    expect(next).not.toBe(work);
    outcome.resolve('late token');
    expect(await next.wait(undefined, undefined, '')).toBe('late token');
    expect(run).not.toHaveBeenCalled();
  });

  it('once given up, continues by running afresh when its attempt in flight fails', async () => {
    const { work, outcome } = controlledWork();
    await leave(work);
    const next = work.continued(() => Promise.resolve('fresh token'));
    outcome.reject(new Error('429, not retried'));
    expect(await next.wait(undefined, undefined, '')).toBe('fresh token');
  });

  it('runs nothing for a continuation given up before the work it follows failed; a later one runs once', async () => {
    const { work, outcome } = controlledWork();
    await leave(work);
    const runForNobody = vi.fn(() => Promise.resolve('token nobody waits for'));
    const second = work.continued(runForNobody);
    await leave(second);
    const run = vi.fn(() => Promise.resolve('fresh token'));
    const third = second.continued(run);
    expect(third).not.toBe(second);
    outcome.reject(new Error('the attempt in flight failed'));
    expect(await third.wait(undefined, undefined, '')).toBe('fresh token');
    expect(runForNobody).not.toHaveBeenCalled();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('with settlesWithinMs, once given up, runs afresh when no result came that long after the give-up', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const work = new SharedWork<string>(() => new Promise(() => {}), { settlesWithinMs: 5_000, clock: { now: () => Date.now() } });
    await leave(work); // its request ended, and the runtime dropped its I/O (workerd): it never settles
    await vi.advanceTimersByTimeAsync(2_000);
    const run = vi.fn(() => Promise.resolve('fresh token'));
    const next = work.continued(run);
    const waited = next.wait(undefined, undefined, '');
    await vi.advanceTimersByTimeAsync(2_999);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await waited).toBe('fresh token');
    expect(run).toHaveBeenCalledTimes(1);
  });

  /** A call of a request whose timers workerd drops once it ends: `setTimeout` does nothing while `during` runs. */
  function withDroppedTimers<R>(during: () => R): R {
    vi.stubGlobal('setTimeout', () => 0);
    try {
      return during();
    } finally {
      vi.unstubAllGlobals();
    }
  }

  it('ends the wait of a call that joined the take-over with its own timer when the one that took over has gone', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const work = new SharedWork<string>(() => new Promise(() => {}), { settlesWithinMs: 5_000, clock: { now: () => Date.now() } });
    await leave(work);
    const run = vi.fn(() => Promise.resolve('fresh token'));
    const taker = new AbortController();
    const next = withDroppedTimers(() => {
      const takenOver = work.continued(run);
      takenOver.wait(taker.signal, undefined, '').catch(() => {});
      return takenOver;
    });
    const joined = next.wait(undefined, undefined, ''); // another call, with no deadline of its own
    taker.abort(); // the call that took over has left, and its timers are gone (workerd: see the Known gaps)
    await vi.advanceTimersByTimeAsync(4_999);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await joined).toBe('fresh token');
  });

  it('keeps the time of the first give-up through a chain of take-overs given up in turn', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const work = new SharedWork<string>(() => new Promise(() => {}), { settlesWithinMs: 5_000, clock: { now: () => Date.now() } });
    await leave(work); // given up at 0
    await vi.advanceTimersByTimeAsync(1_000);
    const run = vi.fn(() => Promise.resolve('fresh token'));
    const leaving = new AbortController();
    const second = withDroppedTimers(() => {
      const takenOver = work.continued(run);
      takenOver.wait(leaving.signal, undefined, '').catch(() => {});
      return takenOver;
    });
    await vi.advanceTimersByTimeAsync(200);
    leaving.abort(); // given up at 1200, its request gone with its timers
    await vi.advanceTimersByTimeAsync(100);
    const third = second.continued(run);
    const waited = third.wait(undefined, 4_500, 'no token in time');
    waited.catch(() => {});
    await vi.advanceTimersByTimeAsync(3_699);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1); // 5 s after the first give-up, not the second
    expect(await waited).toBe('fresh token');
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs afresh at once when taken over after the time is up', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const work = new SharedWork<string>(() => new Promise(() => {}), { settlesWithinMs: 5_000, clock: { now: () => Date.now() } });
    await leave(work);
    await vi.advanceTimersByTimeAsync(5_000);
    const run = vi.fn(() => Promise.resolve('fresh token'));
    const next = withDroppedTimers(() => work.continued(run));
    expect(await withDroppedTimers(() => next.wait(undefined, undefined, ''))).toBe('fresh token');
  });

  it('measures the time of a take-over that ran afresh and was then given up from its own give-up', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const work = new SharedWork<string>(() => new Promise(() => {}), { settlesWithinMs: 5_000, clock: { now: () => Date.now() } });
    await leave(work); // given up at 0
    const fresh = deferred<string>();
    const runFresh = vi.fn(() => fresh.promise);
    const second = work.continued(runFresh);
    const leaving = new AbortController();
    second.wait(leaving.signal, undefined, '').catch(() => {});
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runFresh).toHaveBeenCalledTimes(1); // ran afresh at 5000; its request is on its way
    await vi.advanceTimersByTimeAsync(1_000);
    leaving.abort(); // given up at 6000
    await turn();
    const run = vi.fn(() => Promise.resolve('another token'));
    const waited = second.continued(run).wait(undefined, undefined, '');
    await vi.advanceTimersByTimeAsync(4_999); // until 11000, not the first give-up's 5000
    expect(run).not.toHaveBeenCalled();
    fresh.resolve('fresh token');
    expect(await waited).toBe('fresh token');
    expect(run).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears the timers of the calls that waited for a take-over once the work it took over ends', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const outcome = deferred<string>();
    const settling = new SharedWork<string>(() => outcome.promise, { settlesWithinMs: 5_000, clock: { now: () => Date.now() } });
    await leave(settling);
    const next = settling.continued(() => Promise.resolve('fresh token'));
    const waits = [
      next.wait(undefined, undefined, ''),
      next.wait(undefined, 3_000, ''),
      next.wait(new AbortController().signal, undefined, ''),
    ];
    expect(vi.getTimerCount()).toBe(4); // a timer per call for the take-over's time, and one call's own timeout
    outcome.resolve('late token');
    expect(await Promise.all(waits)).toEqual(['late token', 'late token', 'late token']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves the wait unbounded when settlesWithinMs is beyond what a timer holds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const outcome = deferred<string>();
    const work = new SharedWork(() => outcome.promise, { settlesWithinMs: 5 * 2 ** 31, clock: { now: () => Date.now() } });
    await leave(work);
    const run = vi.fn(() => Promise.resolve('fresh token'));
    const next = work.continued(run);
    await vi.advanceTimersByTimeAsync(60_000);
    outcome.resolve('late token');
    expect(await next.wait(undefined, undefined, '')).toBe('late token');
    expect(run).not.toHaveBeenCalled();
  });

  it('handles a rejection that no call waits for', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { work, outcome } = controlledWork();
      const controller = new AbortController();
      work.wait(controller.signal, undefined, '').catch(() => {});
      controller.abort();
      outcome.reject(new Error('failed for nobody'));
      await turn();
      await turn();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('SharedWork in workerd, used by a request other than the one that started it', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads whether it was given up without touching its controller, which workerd ties to that request', async () => {
    // workerd's controllers, once the request that made them has ended: touching them throws.
    let ended = false;
    const crossRequest = () => new Error('Cannot perform I/O on behalf of a different request');
    const NativeController = AbortController;
    class RequestBoundController {
      readonly #controller = new NativeController();
      get signal(): AbortSignal {
        const { signal } = this.#controller;
        return new Proxy(signal, {
          get: (target, property) => {
            if (ended && property === 'aborted') throw crossRequest();
            const value = Reflect.get(target, property, target);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      }
      abort(reason?: unknown) {
        if (ended) throw crossRequest();
        this.#controller.abort(reason);
      }
    }
    vi.stubGlobal('AbortController', RequestBoundController);
    const outcome = deferred<string>();
    const work = new SharedWork(() => outcome.promise);
    vi.unstubAllGlobals();
    ended = true; // the next request uses the work
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      expect(work.givenUp).toBe(false);
      await leave(work);
      expect(work.givenUp).toBe(true);
      expect(work.abandoned).toBe(true);
      await turn();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
