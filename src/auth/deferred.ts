/** The names of the methods of `T`. */
type MethodName<T> = { [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof T] & string;

/**
 * An object with the given async methods of `T`, for namespaces whose code is in a lazily imported chunk.
 * Each call awaits `load()`, which should cache its promise, and calls the method of the same name on the result.
 */
export function deferred<T extends object>(load: () => Promise<T>, methods: readonly MethodName<T>[]): T {
  const facade: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of methods) {
    facade[name] = async (...args) => {
      const target = (await load()) as Record<string, (...args: unknown[]) => Promise<unknown>>;
      return target[name]?.(...args);
    };
  }
  return Object.freeze(facade) as T;
}
