/** Whether an answer is a promise (or another thenable), rather than the value itself. */
export function isThenable<T>(answer: T | Promise<T>): answer is Promise<T> {
  return typeof (answer as { then?: unknown } | null | undefined)?.then === 'function';
}
