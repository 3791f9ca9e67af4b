import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './platform/clock.ts';
import type { Database } from './platform/db/database.ts';
import { SubscriberRegistry } from './platform/events/bus.ts';
import { Dispatcher } from './platform/events/dispatcher.ts';

/** Background work of an instance: the event dispatcher (and, as modules land, their jobs). */
export interface Workers {
  bus: SubscriberRegistry;
  dispatcher: Dispatcher;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createWorkers(deps: { database: Database; clock: Clock; log: FastifyBaseLogger }): Workers {
  const bus = new SubscriberRegistry();
  const dispatcher = new Dispatcher({ ...deps, bus, sinks: [] });
  return {
    bus,
    dispatcher,
    start: () => dispatcher.start(),
    stop: () => dispatcher.stop(),
  };
}
