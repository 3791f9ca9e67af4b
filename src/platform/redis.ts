import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

/**
 * A Redis client for REDIS_URL. ioredis is loaded here, on first use, rather than imported at the
 * top of the modules that may need it: most instances run without Redis and should not pay for
 * loading it at every start.
 */
export function connectRedis(url: string): Redis {
  const ioredis = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  return new ioredis.Redis(url, { maxRetriesPerRequest: 2 });
}
