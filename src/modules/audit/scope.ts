import { hostname, userInfo } from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { AuditScope } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { actionOfMethod } from '../../platform/http/permissions.ts';
import { insertAuditEntry, setAuditId } from './queries.ts';
import { bodyChanges } from './redact.ts';

/**
 * The audit entry of an admin write, built from the request once the guard knows the actor: who,
 * what (method, route pattern, `<resource>:<action>` from the route's declared permission, the
 * `:id` of the path), from where. Reads (GET, HEAD, OPTIONS) get none.
 */
export function auditScopeOf(req: FastifyRequest): AuditScope | undefined {
  if (actionOfMethod(req.method) === 'read' || !req.actor) return undefined;
  const id = newId('audit');
  const permission = req.routeOptions.config.permission;
  const [resource, action] = permission?.includes(':') ? permission.split(':') : [null, permission ?? null];
  const params = (req.params ?? {}) as Record<string, string | undefined>;
  const { actor } = req;
  const scope: AuditScope = {
    recorded: false,
    begin: (tx) => setAuditId(tx, id),
    async record(exec, inTransaction, result) {
      // The body is parsed after onRequest, where the scope is made: read it when writing.
      const { fields, changes } = bodyChanges(req.body);
      await insertAuditEntry(exec, {
        id,
        created_at: req.ctx.clock.now(),
        actor_type: actor.type,
        actor_id: actor.id,
        actor_role: actor.role,
        method: req.method,
        route: req.routeOptions.url ?? req.url.split('?')[0],
        path: req.url.split('?')[0],
        resource,
        action,
        // A create has no id in its path: the new resource's id is in what the write produced.
        resource_id: params.id ?? Object.values(params).find((v) => typeof v === 'string') ?? createdIdOf(result),
        fields,
        changes,
        in_transaction: inTransaction,
        ip: req.ip,
        user_agent: req.headers['user-agent']?.slice(0, 500) ?? null,
      });
    },
  };
  return scope;
}

/**
 * For a write that succeeded without a transaction of inTx (one statement, a plugin's route on its
 * own connection): its entry is written right after, as its own statement, before the answer leaves.
 */
export async function recordUnwrittenAudit(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
  const audit = req.ctx?.audit;
  if (!audit || audit.recorded || reply.statusCode >= 400) return;
  audit.recorded = true;
  await audit.record(req.ctx.db, false, payload);
}

const ID = /^[a-z][a-z0-9]*_[0-9A-Za-z]{8,}$/;
const MAX_PARSED = 256 * 1024;

/**
 * The id of what a create made: `result.id`, or the id of the one resource in an envelope
 * (`{ product: { id } }`), from a service's return value or the JSON answer. Null when there is none
 * or several candidates (a batch): a guess would file the entry under the wrong resource.
 */
export function createdIdOf(result: unknown): string | null {
  let value = result;
  if (typeof value === 'string') {
    if (ID.test(value)) return value;
    if (value.length > MAX_PARSED || !value.startsWith('{')) return null;
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const own = (value as { id?: unknown }).id;
  if (typeof own === 'string') return ID.test(own) ? own : null;
  const ids = Object.values(value)
    .filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
    .map((v) => (v as { id?: unknown }).id)
    .filter((id): id is string => typeof id === 'string' && ID.test(id));
  return ids.length === 1 ? ids[0] : null;
}

/**
 * The audit entry of a CLI write (`emporium user create`): the actor is the operating-system user
 * who ran it, the route the command; written in the command's transaction (run it through inTx).
 */
export function cliAuditScope(
  clock: Clock,
  command: string,
  body: Record<string, unknown>,
  target: { resource: string; action?: string },
): AuditScope {
  const id = newId('audit');
  const scope: AuditScope = {
    recorded: false,
    begin: (tx) => setAuditId(tx, id),
    async record(exec, inTransaction, result) {
      const { fields, changes } = bodyChanges(body);
      await insertAuditEntry(exec, {
        id,
        created_at: clock.now(),
        actor_type: 'cli',
        actor_id: osUser(),
        actor_role: null,
        method: 'CLI',
        route: `emporium ${command}`,
        path: `emporium ${command}`,
        resource: target.resource,
        action: target.action ?? 'write',
        resource_id: createdIdOf(result),
        fields,
        changes,
        in_transaction: inTransaction,
        ip: hostname(),
        user_agent: `node ${process.version}`,
      });
    },
  };
  return scope;
}

function osUser(): string | null {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? null;
  }
}
