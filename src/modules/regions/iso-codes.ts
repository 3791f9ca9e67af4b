import { createRequire } from 'node:module';
// The plain index (not the package's Node entry, which registers all ~80 locales): we only need English.
import isoCountries from 'i18n-iso-countries/index.js';

isoCountries.registerLocale(createRequire(import.meta.url)('i18n-iso-countries/langs/en.json'));

/** What a region shows for one of its countries, in Medusa's shape (minus `region_id`). */
export interface CountryInfo {
  iso_2: string;
  iso_3: string;
  num_code: string;
  /** Upper-case, as Medusa's seeded country table spells it ("GERMANY"). */
  name: string;
  display_name: string;
}

const ALPHA2 = new Set(Object.keys(isoCountries.getAlpha2Codes()).map((c) => c.toLowerCase()));
const infoCache = new Map<string, CountryInfo>();

/** ISO 3166-1 alpha-2 only: the library's `isValid` also accepts alpha-3 and numeric codes. */
export function isCountryCode(code: string): boolean {
  return ALPHA2.has(code.toLowerCase());
}

/** Details of a known alpha-2 code (any case); the caller validated it with `isCountryCode`. */
export function countryInfo(code: string): CountryInfo {
  const iso2 = code.toLowerCase();
  let info = infoCache.get(iso2);
  if (!info) {
    const upper = iso2.toUpperCase();
    const displayName = isoCountries.getName(upper, 'en') ?? upper;
    info = {
      iso_2: iso2,
      iso_3: (isoCountries.alpha2ToAlpha3(upper) ?? '').toLowerCase(),
      num_code: isoCountries.alpha2ToNumeric(upper) ?? '',
      name: displayName.toUpperCase(),
      display_name: displayName,
    };
    infoCache.set(iso2, info);
  }
  return info;
}

// Node's ICU list of ISO 4217 codes; Medusa stores and answers currency codes in lower case.
const CURRENCIES = new Set(Intl.supportedValuesOf('currency').map((c) => c.toLowerCase()));

export function isCurrencyCode(code: string): boolean {
  return CURRENCIES.has(code);
}
