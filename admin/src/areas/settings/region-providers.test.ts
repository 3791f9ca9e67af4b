import { describe, expect, it } from 'vitest';
import { providerChoices } from './region-providers.ts';

describe('a region’s payment provider checkboxes', () => {
  it('lists the running providers checked as the region names them, then named ones that stopped', () => {
    const running = [
      { id: 'pp_system_default', name: 'Manual payment', plugin: null },
      { id: 'pp_stripe', name: 'Stripe', plugin: 'stripe-payments' },
    ];
    expect(providerChoices(running, ['pp_stripe', 'pp_gone'])).toEqual([
      { id: 'pp_system_default', name: 'Manual payment', plugin: null, running: true, checked: false },
      { id: 'pp_stripe', name: 'Stripe', plugin: 'stripe-payments', running: true, checked: true },
      { id: 'pp_gone', name: 'pp_gone', plugin: null, running: false, checked: true },
    ]);
    expect(providerChoices(running, []).every((c) => !c.checked)).toBe(true);
  });
});
