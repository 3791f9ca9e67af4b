import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Region } from '../regions/service.ts';
import type { AddressInputT } from './schema.ts';
import type { AddressJson } from './tables.ts';

const TEXT_FIELDS = [
  'first_name',
  'last_name',
  'company',
  'address_1',
  'address_2',
  'city',
  'province',
  'postal_code',
  'phone',
] as const;

/** An address as stored: every field present, country lower-case, a fresh id (a sent `id` is ignored). */
export function toAddress(input: AddressInputT): AddressJson {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, input[f] ?? null])) as Record<
    (typeof TEXT_FIELDS)[number],
    string | null
  >;
  return {
    id: newId('caaddr'),
    ...text,
    country_code: input.country_code?.toLowerCase() ?? null,
    metadata: input.metadata ?? null,
  };
}

export function fitsRegion(address: AddressJson | null | undefined, region: Region): boolean {
  return !address?.country_code || region.countries.some((c) => c.iso_2 === address.country_code);
}

export function assertInRegion(address: AddressJson | null | undefined, region: Region): void {
  if (!fitsRegion(address, region))
    throw errors.invalid('cart_country_outside_region', {
      country: String(address!.country_code),
      region: region.name,
    });
}
