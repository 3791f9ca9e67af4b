import type { Page } from '../../platform/http/pagination.ts';
import type { Providers } from '../../platform/providers.ts';

/** The shop's own provider: the tax rates as they are (select-rates.ts). */
export const SYSTEM_TAX_PROVIDER = 'tp_system';

/**
 * Medusa's `GET /admin/tax-providers` (2.8): the providers a tax region can name, the built-in
 * one first, then those the running plugins registered (`tp_<id>`). `name` and `plugin` are ours,
 * beside Medusa's `id` and `is_enabled`, so the panel can say whose provider it is.
 */
export function listTaxProviders(
  providers: Providers | undefined,
  filters: { id?: string | string[]; is_enabled?: boolean },
  page: Page,
) {
  const ids = filters.id === undefined ? null : new Set([filters.id].flat());
  const all = [
    { id: SYSTEM_TAX_PROVIDER, is_enabled: true, name: 'Built-in tax rates', plugin: null as string | null },
    ...(providers?.tax.list() ?? []).map((p) => ({ id: p.id, is_enabled: true, name: p.name, plugin: p.owner })),
  ].filter((p) => (!ids || ids.has(p.id)) && (filters.is_enabled === undefined || p.is_enabled === filters.is_enabled));
  return { tax_providers: all.slice(page.offset, page.offset + page.limit), count: all.length, ...page };
}
