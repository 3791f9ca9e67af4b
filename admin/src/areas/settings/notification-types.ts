import type { Item, Ok } from '../../api/types.ts';
export type NotificationProvider = Item<ProviderList['notification_providers']>;

export type ProviderList = Ok<'/admin/notification-providers'>;

export type NotificationDelivery = Ok<'/admin/notification-deliveries/{id}'>['notification_delivery'];

export type Template = Item<Ok<'/admin/notification-templates'>['notification_templates']>;

export const DELIVERY_STATUSES = ['pending', 'sent', 'dead', 'not_sent'] as const;

/**
 * What the operator must know before reading the history: nothing goes out without a provider,
 * and a channel that no provider sends on loses its messages (recorded `not_sent`).
 */
export function providerWarning(list: ProviderList | undefined): string | null {
  if (!list) return null;
  if (list.notification_providers.length === 0)
    return 'No notification provider installed: nothing is sent. Order confirmations, shipping notices and password reset links are recorded as “not sent”. Install one (for example SMTP email) from the Marketplace, then retry them here.';
  if (list.channels_without_provider.length)
    return `No provider sends on ${list.channels_without_provider.join(', ')}: those messages are not sent.`;
  return null;
}
