import { sql, type SQL } from 'drizzle-orm';
import { from, type RawRow, tableAs } from '../../platform/db/typed-sql.ts';
import { regionCountries, regions } from './tables.ts';

const r = tableAs(regions, 'r');
const rc = tableAs(regionCountries, 'rc');

/**
 * A live region with its countries as one JSON value (null when absent or deleted), for
 * statements that read a region beside something else, such as the store's cart, in one round
 * trip. `regionFromJson` (service.ts) turns it into the Region that getRegion answers.
 */
export const regionJson = (
  regionId: SQL,
) => sql<RegionJson | null>`(select json_build_object('region', to_json(${r}), 'countries',
    (select coalesce(json_agg(${rc.iso_2} order by ${rc.iso_2}), '[]'::json) from ${from(rc)} where ${rc.region_id} = ${r.id}))
  from ${from(r)} where ${r.id} = ${regionId} and ${r.deleted_at} is null)`;

export interface RegionJson {
  /** The row as JSON: timestamps arrive as text. */
  region: RawRow<typeof regions.$inferSelect>;
  countries: string[];
}
