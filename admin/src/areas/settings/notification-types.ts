export interface NotificationProvider {
  id: string;
  name: string;
  channels: string[];
  plugin: string;
}

export interface ProviderList {
  notification_providers: NotificationProvider[];
  channels_without_provider: string[];
}

export interface NotificationDelivery {
  id: string;
  channel: string;
  to: string;
  template: string;
  status: 'pending' | 'sent' | 'dead' | 'not_sent';
  attempts: number;
  next_attempt_at: string | null;
  provider_id: string | null;
  provider_message_id: string | null;
  error: string | null;
  sent_at: string | null;
  created_at: string;
}

export interface Template {
  name: string;
  channel: string;
  description: string;
  sample_data: Record<string, unknown>;
}

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
