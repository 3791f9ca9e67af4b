import type { Actor, Ctx } from '../context.ts';
import { deletedEnvelope } from './pagination.ts';
import { ok } from './responses.ts';
import { IdParams } from './schema-types.ts';
import type { App } from './types.ts';

/** What a delete reads of its request: the row's id, and who asks (for rules such as "never the last owner"). */
export interface DeleteRequest {
  ctx: Ctx;
  actor: Actor | null;
  params: { id: string };
}

/**
 * `DELETE <url>` of one row named by `:id`: `remove` deletes it (or throws why not), and the
 * answer says so in Medusa's shape, `{ id, object, deleted: true }` (`deletedEnvelope`).
 */
export function deleteByIdRoute<O extends string>(
  app: App,
  url: string,
  route: { tags: string[]; summary: string; object: O; remove: (req: DeleteRequest) => Promise<unknown> },
): void {
  const { tags, summary, object, remove } = route;
  app.delete(
    url,
    { schema: { tags, summary, params: IdParams, response: ok(deletedEnvelope(object)) } },
    async (req) => {
      await remove(req);
      return { id: req.params.id, object, deleted: true as const };
    },
  );
}
