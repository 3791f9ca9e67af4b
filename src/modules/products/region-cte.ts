import { type SQL, sql } from 'drizzle-orm';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { regions } from '../regions/tables.ts';
import { pricePreferences } from '../taxes/tables.ts';

const r = tableAs(regions, 'r');
const pp = tableAs(pricePreferences, 'pp');

/**
 * The CTE `region(currency_code, is_tax_inclusive)` of a store read with `region_id`, resolved
 * in the read's own statement (an unknown region reads as no row). Variant prices include tax as
 * their currency's preference says (Medusa); a region marked tax-inclusive counts for a currency
 * without one. On the regions and taxes modules' declared tables: a renamed column fails the
 * typecheck.
 */
export const regionCte = (regionId: string): SQL =>
  sql`region as (select ${r.currency_code}, coalesce((select ${pp.is_tax_inclusive} from ${from(pp)}
    where ${pp.attribute} = 'currency_code' and ${pp.value} = ${r.currency_code} and ${pp.deleted_at} is null), ${r.is_tax_inclusive})
    as is_tax_inclusive from ${from(r)} where ${r.id} = ${regionId} and ${r.deleted_at} is null)`;
