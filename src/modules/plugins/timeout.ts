/** A call into plugin code that did not finish in time (register, onConfigure, unload, a route handler). */
export class PluginTimeoutError extends Error {}

/** Plugin code may hang: every call into it is raced against a timer. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PluginTimeoutError(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
