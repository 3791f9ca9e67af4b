/**
 * Notification providers: what a `notification-provider` plugin implements so that the shop can
 * send its messages (order confirmations, shipping notices, password resets) by email, SMS, ….
 *
 * The shop renders the message (subject, text and HTML of its own templates) and hands it over;
 * the provider only delivers it. Every send is recorded (`GET /admin/notification-deliveries`)
 * and retried on the shop's webhook schedule (1 m, 5 m, 30 m, 2 h, 12 h) when `send` throws or
 * has not answered by `context.deadline`, so a provider outage loses nothing. A retry carries the
 * same `id`: pass it on (e.g. as a Message-ID) so the receiving side can spot a duplicate.
 * Arguments and answers are plain JSON.
 */

import type { JsonObject } from './json.ts';

/** One message to deliver. */
export interface NotificationMessage {
  /** The delivery id (`ntfd_…`), the same on every retry. */
  id: string;
  /** The address on the channel: an email address for `email`, a phone number for `sms`. */
  to: string;
  channel: string;
  /** The shop's template, e.g. `order.placed`, `auth.password_reset`. */
  template: string;
  /** What the template was rendered with. */
  data: JsonObject;
  /** The rendered message. */
  content: { subject: string; text: string; html: string | null };
  /** 1 on the first try. */
  attempt: number;
  context: { deadline: number };
}

export interface NotificationSendResult {
  /** The provider's id for the message (kept in the delivery history). */
  id?: string;
}

/**
 * Registered from `register(ctx)` with `ctx.notifications.register(provider)`. One provider per
 * channel sends: the running one with the lowest id among those that declare the channel.
 *
 * @example
 * ```js
 * ctx.notifications.register({
 *   id: 'acme-mail',
 *   channels: ['email'],
 *   async send({ id, to, content }) {
 *     const sent = await acmeMail.send({ to, subject: content.subject, text: content.text, html: content.html, messageId: id });
 *     return { id: sent.id };
 *   },
 * });
 * ```
 */
export interface NotificationProvider {
  /** Lower-case slug, unique in the shop. */
  id: string;
  name?: string;
  channels: string[];
  /** Delivers the message; throw (or reject) when it was not accepted, and it will be retried. */
  send(message: NotificationMessage): Promise<NotificationSendResult | undefined | void>;
}
