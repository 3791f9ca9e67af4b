import { createRequire } from 'node:module';
// The plain index (not the package's Node entry, which registers all ~80 locales): we only need English.
import isoCountries from 'i18n-iso-countries/index.js';

/**
 * The English names and the code list, loaded by the first region call rather than at import
 * (reading the locale and listing ICU's currencies cost every start time, whether or not it used them).
 */
let loaded: { iso: typeof isoCountries; alpha2: Set<string> } | undefined;
function countries(): NonNullable<typeof loaded> {
  if (!loaded) {
    isoCountries.registerLocale(createRequire(import.meta.url)('i18n-iso-countries/langs/en.json'));
    loaded = {
      iso: isoCountries,
      alpha2: new Set(Object.keys(isoCountries.getAlpha2Codes()).map((c) => c.toLowerCase())),
    };
  }
  return loaded;
}

/** What a region shows for one of its countries, in Medusa's shape (minus `region_id`). */
export interface CountryInfo {
  iso_2: string;
  iso_3: string;
  num_code: string;
  /** Upper-case, as Medusa's seeded country table spells it ("GERMANY"). */
  name: string;
  display_name: string;
}

const infoCache = new Map<string, CountryInfo>();

/** ISO 3166-1 alpha-2 only: the library's `isValid` also accepts alpha-3 and numeric codes. */
export function isCountryCode(code: string): boolean {
  return countries().alpha2.has(code.toLowerCase());
}

/** Every ISO 3166-1 alpha-2 code, lower case (what a country picker offers). */
export function countryCodes(): string[] {
  return [...countries().alpha2];
}

/** Details of a known alpha-2 code (any case); the caller validated it with `isCountryCode`. */
export function countryInfo(code: string): CountryInfo {
  const iso2 = code.toLowerCase();
  let info = infoCache.get(iso2);
  if (!info) {
    const upper = iso2.toUpperCase();
    const { iso } = countries();
    const displayName = iso.getName(upper, 'en') ?? upper;
    info = {
      iso_2: iso2,
      iso_3: (iso.alpha2ToAlpha3(upper) ?? '').toLowerCase(),
      num_code: iso.alpha2ToNumeric(upper) ?? '',
      name: displayName.toUpperCase(),
      display_name: displayName,
    };
    infoCache.set(iso2, info);
  }
  return info;
}

// Node's ICU list of ISO 4217 codes; Medusa stores and answers currency codes in lower case. Read
// on first use: asking ICU at load touched ~1 MiB of its data in every server, reads-only ones too.
let currencies: Set<string> | undefined;

export function isCurrencyCode(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency').map((c) => c.toLowerCase()));
  return currencies.has(code);
}
