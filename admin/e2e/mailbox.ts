import type { JsonObject } from '../../src/platform/providers.ts';
import type { Shop } from './harness.ts';

export interface Sent {
  to: string;
  template: string;
  data: JsonObject;
  content: { subject?: string; text?: string };
}

/**
 * An email provider registered straight into the shop's registry (as a plugin's would be): it
 * keeps what it is asked to send, or refuses while `failing` is set (an outage seen in the history).
 */
export function installMailbox(
  shop: Shop,
  name = 'Test mailbox',
): { sent: Sent[]; failing: boolean; next(): Promise<Sent> } {
  const box = {
    sent: [] as Sent[],
    failing: false,
    waiters: [] as ((s: Sent) => void)[],
    next(): Promise<Sent> {
      return new Promise((resolve) => box.waiters.push(resolve));
    },
  };
  shop.app.providers.notification.add({
    id: 'mailbox',
    owner: 'e2e-mailbox',
    name,
    methods: ['send'],
    channels: ['email'],
    async call(method, input) {
      if (method !== 'send') throw new Error(`unexpected ${method}`);
      if (box.failing) throw new Error('mailbox unreachable: connection refused');
      const sent = input as unknown as Sent;
      box.sent.push(sent);
      box.waiters.shift()?.(sent);
      return { id: `msg_${box.sent.length}` };
    },
  });
  return box;
}
