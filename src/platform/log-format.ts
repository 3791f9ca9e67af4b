import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';

const loadPretty = () => import('pino-pretty');
let prettyModule: ReturnType<typeof loadPretty> | undefined;

/** pino-pretty's module, loaded once. A failed load is reported where it is awaited, not first as an unhandled rejection. */
function pretty(): ReturnType<typeof loadPretty> {
  if (!prettyModule) {
    prettyModule = loadPretty();
    prettyModule.catch(() => {});
  }
  return prettyModule;
}

/**
 * Starts loading pino-pretty when LOG_FORMAT=pretty (~20 ms of module loading), so that main.ts can
 * overlap it with opening the database instead of adding it to the start.
 */
export function preloadLogFormat(format: Config['logFormat']): void {
  if (format === 'pretty') void pretty();
}

/**
 * Where the server's log lines go for LOG_FORMAT. `json` (the default when stdout is not a
 * terminal): pino's own JSON lines on stdout, for a log collector. `pretty` (the default at a
 * terminal): pino-pretty's readable lines, formatted in this thread and written synchronously, so
 * no worker thread starts (a pino transport would start one) and no line is lost when the process
 * exits. pino-pretty loads only then: a JSON start pays nothing for it.
 */
export async function logDestination(format: Config['logFormat']): Promise<DestinationStream | undefined> {
  if (format !== 'pretty') return undefined;
  const { default: build } = await pretty();
  return build({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}
