/**
 * Type-level tests of the event map, checked by `npm run typecheck` (CI): each `@ts-expect-error`
 * line must fail to compile, so if a wrong payload ever type-checks, the typecheck fails.
 * Nothing here runs.
 */
import type { PluginContext } from '../../plugin-sdk/index.ts';
import type { TxCtx } from '../../src/platform/context.ts';
import type { SubscriberRegistry } from '../../src/platform/events/bus.ts';
import { emit } from '../../src/platform/events/emit.ts';

export function eventMapChecks(tctx: TxCtx, bus: SubscriberRegistry, plugin: PluginContext): void {
  const cart = {
    id: 'cart_1',
    email: null,
    currency_code: 'eur',
    region_id: 'reg_1',
    customer_id: null,
    items: [],
    total: 0,
    completed_at: null,
  };
  void emit(tctx, 'cart.updated', cart);
  // @ts-expect-error a cart is not an order
  void emit(tctx, 'order.placed', cart);
  // @ts-expect-error not a core event
  void emit(tctx, 'order.exploded', { id: 'order_1' });
  void emit(tctx, 'product.deleted', { id: 'prod_1' });
  // @ts-expect-error a deleted product still names its id
  void emit(tctx, 'product.deleted', {});

  bus.on('order.placed', (e) => {
    const displayId: number = e.payload.display_id;
    void displayId;
  });
  plugin.on('order.placed', (e) => {
    // @ts-expect-error display_id is a number
    const displayId: string = e.payload.display_id;
    void displayId;
  });
  plugin.on('order.*', (e) => void e.payload.id);
}
