import { sql } from 'drizzle-orm';
import type { TxCtx } from '../../platform/context.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { newId } from '../../platform/ids.ts';
import { shippingOptions } from '../shipping-options/tables.ts';
import * as q from './queries.ts';
import { cartShippingMethods } from './tables.ts';

const m = tableAs(cartShippingMethods, 'm');
const o = tableAs(shippingOptions, 'o');

/** The option a method is made from, priced for the cart by checkout. */
export interface ChosenOption {
  id: string;
  name: string;
  amount: number;
  shipping_profile_id: string;
  data: Record<string, unknown> | null;
}

/**
 * Sets the cart's shipping method for the option's shipping profile, replacing the method that
 * profile had (a cart has one per profile its items need; cart locked by lockOpenCart).
 */
export async function chooseShippingMethod(tctx: TxCtx, cartId: string, option: ChosenOption): Promise<void> {
  const now = tctx.clock.now();
  await tctx.tx.execute(sql`delete from ${from(m)} where ${m.cart_id} = ${cartId}
    and coalesce((select ${o.shipping_profile_id} from ${from(o)} where ${o.id} = ${m.shipping_option_id}), 'sp_default')
      = ${option.shipping_profile_id}`);
  await q.insertShippingMethod(tctx.tx, {
    id: newId('casm'),
    cart_id: cartId,
    shipping_option_id: option.id,
    name: option.name,
    amount: option.amount,
    data: option.data,
    created_at: now,
    updated_at: now,
  });
}
