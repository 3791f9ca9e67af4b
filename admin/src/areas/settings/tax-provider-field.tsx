import { Field } from '../../components/ui.tsx';
import { useApi } from '../../lib/api-hooks.ts';

/**
 * Who computes a tax region's tax lines: the built-in rates (`tp_system`) or a running plugin's
 * tax provider (`GET /admin/tax-providers`). A region may name a provider that is not running
 * (its plugin stopped); it stays listed, marked so, because carts there are refused until it runs.
 */

interface TaxProvider {
  id: string;
  is_enabled: boolean;
  name: string;
  plugin: string | null;
}

export const providerLabel = (p: TaxProvider) => (p.plugin ? `${p.name} (${p.plugin})` : p.name);

export function useTaxProviders() {
  return useApi<{ tax_providers: TaxProvider[] }>(
    ['tax-providers'],
    '/admin/tax-providers',
    { limit: 100 },
    { staleTime: 30_000 },
  );
}

export function TaxProviderField({
  value,
  onChange,
  error,
  disabled,
}: {
  value: string;
  onChange: (id: string) => void;
  error?: unknown;
  disabled?: boolean;
}) {
  const providers = useTaxProviders();
  const list = providers.data?.tax_providers ?? [];
  const missing = value && !list.some((p) => p.id === value);
  return (
    <Field
      label="Tax provider"
      name="provider_id"
      as="select"
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={
        value === 'tp_system'
          ? 'The rates below compute the tax'
          : 'The provider computes the tax lines, given the rates below; carts wait for it'
      }
    >
      {list.length === 0 && !missing && <option value="tp_system">Built-in tax rates</option>}
      {list.map((p) => (
        <option key={p.id} value={p.id}>
          {providerLabel(p)}
        </option>
      ))}
      {missing && <option value={value}>{providers.isSuccess ? `${value} (not running)` : value}</option>}
    </Field>
  );
}
