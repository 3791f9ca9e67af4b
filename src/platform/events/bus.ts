import { sql, type SQL } from 'drizzle-orm';
import type { CoreEvents } from '../../../plugin-sdk/events.ts';
import type { EventName } from './names.ts';

/** An event as subscribers get it; `P` is its payload type when the name is known. */
export interface EventMessage<P = Record<string, unknown>> {
  id: string;
  name: string;
  payload: P;
  created_at: Date;
}

export type EventHandler = (event: EventMessage) => Promise<void> | void;

interface Subscription {
  pattern: string;
  handler: EventHandler;
  owner: string;
}

/** `order.placed` matches `order.placed`, `order.*` and `*`. */
export function eventMatches(pattern: string, name: string): boolean {
  if (pattern === '*' || pattern === name) return true;
  return pattern.endsWith('.*') && name.startsWith(pattern.slice(0, -1));
}

/** eventMatches in SQL, for text expressions (the dispatcher's claim asks it of every event). */
export function eventMatchesSql(pattern: SQL, name: SQL): SQL {
  return sql`(${pattern} = '*' or ${pattern} = ${name}
    or (right(${pattern}, 2) = '.*' and left(${name}, length(${pattern}) - 1) = left(${pattern}, -1)))`;
}

/**
 * In-process subscribers, by event name or pattern. Plugins add theirs at run time and remove
 * them on unload, so subscriptions are owned (`owner`) and removable as a group.
 */
export class SubscriberRegistry {
  private subs: Subscription[] = [];

  /** A core event by name: the handler gets its typed payload. */
  on<K extends EventName>(
    name: K,
    handler: (event: EventMessage<CoreEvents[K]>) => Promise<void> | void,
    owner?: string,
  ): () => void;
  /** A pattern (`order.*`, `*`) or a plugin's own event: the payload is untyped. */
  on(pattern: string, handler: EventHandler, owner?: string): () => void;
  on(pattern: string, handler: EventHandler, owner = 'core'): () => void {
    const sub = { pattern, handler, owner };
    this.subs.push(sub);
    return () => {
      this.subs = this.subs.filter((s) => s !== sub);
    };
  }

  removeOwner(owner: string): void {
    this.subs = this.subs.filter((s) => s.owner !== owner);
  }

  matching(name: string): Subscription[] {
    return this.subs.filter((s) => eventMatches(s.pattern, name));
  }

  /** Every pattern subscribed to now, once each. */
  patterns(): string[] {
    return [...new Set(this.subs.map((s) => s.pattern))];
  }
}
