import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Card, Field } from '../../components/ui.tsx';
import { QueryTable } from '../../components/query-table.tsx';
import type { Ok } from '../../api/types.ts';
import { TaxForm } from './tax-form.tsx';
import { TaxInclusiveCard } from './tax-inclusive.tsx';
import { TaxProviderField } from './tax-provider-field.tsx';
import { RateFields, type RateText } from './tax-rate-fields.tsx';
import { percent, place, rateOf, useTaxRegions, useTaxWrite, type TaxRegion } from './tax-shared.ts';

/** Settings → Taxes: tax regions per country and province, their default rate and provider. */

const defaultRate = (r: TaxRegion) => r.tax_rates.find((t) => t.is_default) ?? null;

/** Countries first, each followed by its provinces. */
function ordered(regions: TaxRegion[]): TaxRegion[] {
  const countries = regions.filter((r) => !r.parent_id).sort((a, b) => a.country_code.localeCompare(b.country_code));
  const out: TaxRegion[] = [];
  for (const c of countries) {
    out.push(c);
    for (const p of regions
      .filter((r) => r.parent_id === c.id)
      .sort((a, b) => (a.province_code ?? '').localeCompare(b.province_code ?? '')))
      out.push(p);
  }
  // Any province whose country is not listed (should not happen) still shows.
  for (const r of regions) if (!out.includes(r)) out.push(r);
  return out;
}

function NewRegionForm({ regions }: { regions: TaxRegion[] }) {
  const emptyRate: RateText = { name: '', code: '', rate: '' };
  const [where, setWhere] = useState({ country_code: '', province_code: '' });
  const [rate, setRate] = useState(emptyRate);
  const [provider, setProvider] = useState('tp_system');
  const save = useTaxWrite(
    () => {
      const country = where.country_code.trim().toLowerCase();
      const province = where.province_code.trim().toLowerCase();
      const parent = province ? regions.find((r) => r.country_code === country && !r.province_code) : undefined;
      return api<Ok<'/admin/tax-regions', 'post'>>('/admin/tax-regions', {
        method: 'POST',
        body: {
          country_code: country,
          province_code: province || null,
          parent_id: parent?.id ?? null,
          provider_id: provider,
          default_tax_rate:
            rate.rate.trim() === ''
              ? undefined
              : {
                  name: rate.name.trim() || `${country.toUpperCase()} VAT`,
                  code: rate.code.trim() || `${country.toUpperCase()}${province ? `-${province.toUpperCase()}` : ''}`,
                  rate: rateOf(rate.rate),
                },
        },
      });
    },
    'Tax region created',
    () => {
      setWhere({ country_code: '', province_code: '' });
      setRate(emptyRate);
    },
  );
  return (
    <TaxForm label="New tax region" save={save} submit="Create tax region">
      <div className="row">
        <Field
          label="Country"
          name="country_code"
          required
          value={where.country_code}
          onChange={(e) => setWhere({ ...where, country_code: e.target.value })}
          error={save.error}
          hint="ISO 3166, e.g. de"
        />
        <Field
          label="Province"
          name="province_code"
          value={where.province_code}
          onChange={(e) => setWhere({ ...where, province_code: e.target.value })}
          error={save.error}
          hint="optional, e.g. by"
        />
        <TaxProviderField value={provider} onChange={setProvider} error={save.error} />
      </div>
      <div className="row">
        <RateFields
          value={rate}
          onChange={setRate}
          error={save.error}
          required={false}
          labels={{ name: 'Rate name', code: 'Rate code', rate: 'Default rate' }}
          hints={{ name: 'e.g. VAT', code: 'e.g. DE19', rate: 'percent, e.g. 19' }}
        />
      </div>
    </TaxForm>
  );
}

export function TaxesPage() {
  const canWrite = useCanWrite();
  const regions = useTaxRegions();
  return (
    <>
      <Card title="Tax regions">
        <QueryTable
          list={regions}
          rows={(d) => ordered(d.tax_regions)}
          empty="No tax regions yet: carts are taxed at 0 until a country has one."
          head={
            <>
              <th>Region</th>
              <th>Default rate</th>
              <th className="num">Rate</th>
              <th className="num">Overrides</th>
              <th>Provider</th>
            </>
          }
          row={(r) => {
            const d = defaultRate(r);
            return (
              <tr key={r.id}>
                <td style={r.parent_id ? { paddingLeft: '2rem' } : undefined}>
                  <Link to={`/settings/taxes/${r.id}`}>{place(r)}</Link>
                </td>
                <td>{d ? `${d.name} (${d.code})` : r.parent_id ? 'Country’s rate' : '—'}</td>
                <td className="num">{percent(d?.rate ?? null)}</td>
                <td className="num">{r.tax_rates.filter((t) => !t.is_default).length}</td>
                <td>{!r.provider_id || r.provider_id === 'tp_system' ? 'Built-in' : r.provider_id}</td>
              </tr>
            );
          }}
        />
      </Card>
      {canWrite && regions.data && (
        <Card title="Add a tax region">
          <NewRegionForm regions={regions.data.tax_regions} />
        </Card>
      )}
      <TaxInclusiveCard />
    </>
  );
}
