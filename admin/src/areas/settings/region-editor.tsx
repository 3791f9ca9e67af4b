import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Badge, Card, ErrorNote, Field, Loading } from '../../components/ui.tsx';
import { SubmitButton } from '../../components/form-pieces.tsx';
import { useToast } from '../../components/toasts.tsx';
import { providerChoices, type RunningProvider } from './region-providers.ts';
import type { Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

type Region = Ok<'/admin/regions/{id}'>['region'];

/** One region: name, currency, countries and the payment providers its shoppers may pay with. */
export function RegionEditor() {
  const { id } = useParams();
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const notify = useToast();
  // Both at once: the region and the providers the shop runs.
  const region = useApi<{ region: Region }>(['/admin/regions', id], `/admin/regions/${id}`);
  const running = useApi<{ payment_providers: RunningProvider[] }>(
    ['payment-providers'],
    '/admin/payments/payment-providers',
    { limit: 100 },
  );
  const [picked, setPicked] = useState<string[] | null>(null);
  const save = useMutation({
    mutationFn: (body: unknown) => api<{ region: Region }>(`/admin/regions/${id}`, { method: 'POST', body }),
    onSuccess: async (data) => {
      client.setQueryData(['/admin/regions', id], data);
      setPicked(null);
      notify('Region saved', 'success');
      await client.invalidateQueries({ queryKey: ['/admin/regions'], exact: true });
    },
  });

  if (region.isPending || running.isPending) return <Loading />;
  if (region.isError || running.isError) return <ErrorNote error={region.error ?? running.error} />;
  const r = region.data.region;
  const named = picked ?? r.payment_providers.map((p) => p.id);
  const choices = providerChoices(running.data.payment_providers, named);
  const providerError =
    save.error instanceof Error && /payment.provider/i.test(save.error.message) ? save.error.message : null;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    save.mutate({
      name: String(form.get('name')),
      currency_code: String(form.get('currency_code')).trim().toLowerCase(),
      countries: String(form.get('countries'))
        .split(',')
        .map((c) => c.trim().toLowerCase())
        .filter(Boolean),
      payment_providers: named,
    });
  }

  return (
    <>
      <p>
        <Link to="/settings/regions">← Regions</Link>
      </p>
      <Card title={r.name}>
        <form className="region-form" onSubmit={submit} aria-label={`Edit ${r.name}`}>
          <fieldset className="plain" disabled={!canWrite}>
            <legend className="sr-only">Region</legend>
            <Field label="Name" name="name" defaultValue={r.name} required error={save.error} />
            <Field
              label="Currency"
              name="currency_code"
              defaultValue={r.currency_code}
              required
              hint="ISO 4217, e.g. eur"
              error={save.error}
            />
            <Field
              label="Countries"
              name="countries"
              defaultValue={r.countries.map((c) => c.iso_2).join(', ')}
              hint="ISO 3166 codes, comma-separated: de, fr"
              error={save.error}
            />
          </fieldset>
          <fieldset disabled={!canWrite} aria-describedby="pp-hint">
            <legend>Payment providers</legend>
            <small id="pp-hint" className="hint">
              What shoppers in this region may pay with. None checked: the built-in manual provider only.
            </small>
            {choices.map((p) => (
              <div className="field field-check" key={p.id}>
                <input
                  id={`pp-${p.id}`}
                  type="checkbox"
                  checked={p.checked}
                  onChange={(e) => setPicked(e.target.checked ? [...named, p.id] : named.filter((n) => n !== p.id))}
                />
                <label htmlFor={`pp-${p.id}`}>
                  {p.name} <span className="muted">{p.id}</span>
                  {p.plugin && <span className="muted"> · plugin {p.plugin}</span>}{' '}
                  {!p.running && <Badge value="disabled">not running</Badge>}
                </label>
              </div>
            ))}
            {providerError && (
              <small className="field-error" role="alert">
                {providerError}
              </small>
            )}
          </fieldset>
          {!providerError && <ErrorNote error={save.error} skipField />}
          {canWrite && (
            <SubmitButton pending={save.isPending}>{save.isPending ? 'Saving…' : 'Save region'}</SubmitButton>
          )}
        </form>
      </Card>
    </>
  );
}
