import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import type { Providers } from '../../platform/providers.ts';
import * as q from './queries.ts';
import { renderTemplate, TEMPLATES } from './templates.ts';

/** A delivery as the admin sees it: never its secret data (a reset token stays out of the history). */
function deliveryView(row: q.DeliveryRow) {
  return {
    id: row.id,
    channel: row.channel,
    to: row.to,
    template: row.template,
    data: row.data,
    status: row.status,
    attempts: row.attempt_count,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    provider_id: row.provider_id,
    provider_message_id: row.provider_message_id,
    error: row.last_error,
    resource_type: row.resource_type,
    resource_id: row.resource_id,
    sent_at: row.sent_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const deliveryNotFound = (id: string) => errors.notFound('notification_delivery_not_found', { id });

export async function listDeliveries(ctx: Ctx, filters: q.DeliveryFilters, page: Page) {
  const found = page.limit ? await q.listDeliveryRows(ctx.db, filters, page) : [];
  return { notification_deliveries: found.map(deliveryView), count: await q.countDeliveryRows(ctx.db, filters) };
}

export async function getDelivery(ctx: Ctx, id: string) {
  const row = await q.findDeliveryRow(ctx.db, id);
  if (!row) throw deliveryNotFound(id);
  return deliveryView(row);
}

/** Sends a pending, dead or not-sent delivery again now (e.g. after installing a provider). */
export async function retryDelivery(ctx: Ctx, id: string) {
  const row = await q.requeueDelivery(ctx.db, id, ctx.clock.now());
  if (row) return deliveryView(row);
  if (await q.findDeliveryRow(ctx.db, id)) throw errors.notAllowed('notification_delivery_sent', { id });
  throw deliveryNotFound(id);
}

export function listTemplates() {
  return {
    notification_templates: [...TEMPLATES.values()].map((t) => ({
      name: t.name,
      channel: t.channel,
      description: t.description,
      sample_data: t.sample,
    })),
  };
}

/** The template rendered with its sample data, overridden by what the admin sends. */
export function previewTemplate(name: string, data: Record<string, unknown> = {}) {
  const t = TEMPLATES.get(name);
  if (!t) throw errors.notFound('notification_template_not_found', { name });
  return { preview: renderTemplate(name, { ...t.sample, ...data }) };
}

export function listNotificationProviders(providers: Providers) {
  const running = providers.notification.list();
  const channels = new Set([...TEMPLATES.values()].map((t) => t.channel));
  return {
    notification_providers: running.map((p) => ({ id: p.id, name: p.name, channels: p.channels, plugin: p.owner })),
    channels_without_provider: [...channels].filter((c) => !running.some((p) => p.channels.includes(c))),
  };
}
