import { useState } from 'react';

import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';

import { Card, ErrorNote, Loading } from '../../components/ui.tsx';
import { useToastWrite } from '../../lib/toast-write.ts';
import type { Item, Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

/**
 * Settings → Taxes, "Prices include tax": the price preferences (`/admin/price-preferences`) of
 * each currency and each region. A currency's switch says whether the prices typed in it include
 * tax; a region's choice, when set, rules the prices that carry the region (its shipping
 * amounts, region prices) over the currency's.
 */

type Preference = Item<Ok<'/admin/price-preferences'>['price_preferences']>;
type Region = Item<Ok<'/admin/regions'>['regions']>;

const KEY = ['price-preferences'];

interface Change {
  attribute: 'currency_code' | 'region_id';
  value: string;
  current: Preference | undefined;
  /** null: no preference of its own (a region then follows its currency). */
  to: boolean | null;
  label: string;
}

function useSetPreference() {
  return useToastWrite(
    async ({ current, to, attribute, value }: Change) => {
      if (to === null) {
        if (current) await api(`/admin/price-preferences/${current.id}`, { method: 'DELETE' });
      } else if (current) {
        await api(`/admin/price-preferences/${current.id}`, { method: 'POST', body: { is_tax_inclusive: to } });
      } else {
        await api('/admin/price-preferences', { method: 'POST', body: { attribute, value, is_tax_inclusive: to } });
      }
    },
    KEY,
    (change) => `${change.label} saved`,
  );
}

const included = (yes: boolean) => (yes ? 'include tax' : 'exclude tax');

export function TaxInclusiveCard() {
  const canWrite = useCanWrite();
  const prefs = useApi<Ok<'/admin/price-preferences'>>(KEY, '/admin/price-preferences', { limit: 1000 });
  const regions = useApi<Ok<'/admin/regions'>>(['regions', 'all'], '/admin/regions', { limit: 100 });
  const stores = useApi<{ stores: { supported_currencies: { currency_code: string }[] }[] }>(
    ['stores'],
    '/admin/stores',
  );
  const set = useSetPreference();
  // The choice being saved, set in the change handler itself: the mutation's own state reaches
  // React a render later, and a controlled switch sprang back meanwhile (Playwright saw its click
  // change nothing on a slow machine). Cleared once the save settled and the list was read again.
  const [choice, setChoice] = useState<Change | null>(null);
  const save = (change: Change) => {
    setChoice(change);
    set.mutate(change, { onSettled: () => setChoice(null) });
  };
  const saving = choice !== null || set.isPending;
  if (prefs.isPending || regions.isPending) return <Loading />;
  if (prefs.isError) return <ErrorNote error={prefs.error} />;
  if (regions.isError) return <ErrorNote error={regions.error} />;
  const all = prefs.data.price_preferences;
  const of = (attribute: string, value: string) => all.find((p) => p.attribute === attribute && p.value === value);
  const currencies = [
    ...new Set([
      ...(stores.data?.stores[0]?.supported_currencies.map((c) => c.currency_code) ?? []),
      ...regions.data.regions.map((r) => r.currency_code),
      ...all.filter((p) => p.attribute === 'currency_code').map((p) => p.value),
    ]),
  ].sort();
  // While a change is saved, the control shows it (a controlled input would otherwise spring back).
  const pending = choice ?? (set.isPending ? set.variables : undefined);
  const shown = (attribute: string, value: string, saved: boolean | null) =>
    pending && pending.attribute === attribute && pending.value === value ? pending.to : saved;
  const currencyIncluded = (code: string) =>
    shown('currency_code', code, of('currency_code', code)?.is_tax_inclusive ?? false) ?? false;
  return (
    <Card title="Prices include tax">
      <p className="muted">
        Whether the prices you type include tax. A currency’s choice covers its prices; a region’s, when set, covers its
        shipping amounts and its own prices instead.
      </p>
      <ErrorNote error={set.error} />
      <table>
        <thead>
          <tr>
            <th>Currency</th>
            <th>Prices include tax</th>
          </tr>
        </thead>
        <tbody>
          {currencies.map((code) => {
            const current = of('currency_code', code);
            const label = `Prices in ${code.toUpperCase()} include tax`;
            return (
              <tr key={code}>
                <td>{code.toUpperCase()}</td>
                <td>
                  <label className="switch">
                    <input
                      type="checkbox"
                      role="switch"
                      aria-label={label}
                      aria-checked={currencyIncluded(code)}
                      checked={currencyIncluded(code)}
                      disabled={!canWrite || saving}
                      onChange={(e) =>
                        save({
                          attribute: 'currency_code',
                          value: code,
                          current,
                          to: e.target.checked,
                          label: `${code.toUpperCase()} prices`,
                        })
                      }
                    />{' '}
                    {currencyIncluded(code) ? 'Included' : 'Not included'}
                  </label>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {regions.data.regions.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Region</th>
              <th>Prices and shipping</th>
            </tr>
          </thead>
          <tbody>
            {regions.data.regions.map((r: Region) => {
              const current = of('region_id', r.id);
              const to = shown('region_id', r.id, current ? current.is_tax_inclusive : null);
              const value = to === null ? 'currency' : to ? 'yes' : 'no';
              return (
                <tr key={r.id}>
                  <td>
                    {r.name} <small className="muted">{r.currency_code.toUpperCase()}</small>
                  </td>
                  <td>
                    <select
                      aria-label={`Prices in ${r.name}`}
                      value={value}
                      disabled={!canWrite || saving}
                      onChange={(e) =>
                        save({
                          attribute: 'region_id',
                          value: r.id,
                          current,
                          to: e.target.value === 'currency' ? null : e.target.value === 'yes',
                          label: `${r.name} prices`,
                        })
                      }
                    >
                      <option value="currency">
                        As {r.currency_code.toUpperCase()}: {included(currencyIncluded(r.currency_code))}
                      </option>
                      <option value="yes">Include tax</option>
                      <option value="no">Exclude tax</option>
                    </select>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </Card>
  );
}
