/**
 * `load`, called at most once at a time: every caller shares its promise, and after
 * a failure the next call loads again (a chunk that failed to load, say offline, is
 * not remembered as failed for good). For code the SDK loads on first use.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
