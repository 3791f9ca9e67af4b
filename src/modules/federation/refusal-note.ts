import { type Ctx, inTx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { createNotification } from '../notifications/service.ts';

/** What a marketplace sent that this shop refused (its transparency log, its revocation list). */
export interface Refusal {
  /** The notification type, also the log line's subject: `marketplace.log_refused`. */
  type: string;
  title: string;
  /** The warning logged, e.g. "revocation list refused". */
  logLine: string;
  /** What the admin reads: what was refused and what that means until it checks out again. */
  message: string;
  /** Keeps the refusal on the marketplace's row, in the same transaction as the notification. */
  save: (tx: Executor, now: Date) => Promise<void>;
}

/** Notes a refusal: in the log, on the marketplace's row, and as a notification (once a day per marketplace). */
export async function noteRefusal(ctx: Ctx, url: string, reason: string, refusal: Refusal): Promise<void> {
  const now = ctx.clock.now();
  ctx.log.warn({ marketplace: url, reason }, refusal.logLine);
  await inTx(ctx, async (tctx) => {
    await refusal.save(tctx.tx, now);
    await createNotification(tctx, {
      type: refusal.type,
      title: refusal.title,
      message: refusal.message,
      data: { marketplace_url: url, reason },
      dedupeKey: `${refusal.type}:${url}:${now.toISOString().slice(0, 10)}`,
    });
  });
}
