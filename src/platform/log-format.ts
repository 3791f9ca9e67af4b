import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';

/**
 * Where the server's log lines go for LOG_FORMAT. `json` (the default when stdout is not a
 * terminal): pino's own JSON lines on stdout, for a log collector. `pretty` (the default at a
 * terminal): pino-pretty's readable lines, formatted in this thread and written synchronously, so
 * no worker thread starts (a pino transport would start one) and no line is lost when the process
 * exits. pino-pretty loads only then: a JSON start pays nothing for it.
 */
export async function logDestination(format: Config['logFormat']): Promise<DestinationStream | undefined> {
  if (format !== 'pretty') return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}
