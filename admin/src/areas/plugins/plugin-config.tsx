import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { ErrorNote, Field, Loading } from '../../components/ui.tsx';
import { SubmitForm } from '../../components/form-pieces.tsx';
import { useToast } from '../../components/toasts.tsx';
import { configChanges, type ConfigValues, type Plugin } from './types.ts';
import { useApi } from '../../lib/api-hooks.ts';

/** A form generated from the manifest's fields; secrets show masked and are sent only when retyped. */
export function PluginConfig({ plugin }: { plugin: Plugin }) {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const notify = useToast();
  const key = ['plugin-config', plugin.id];
  const config = useApi<{ config: ConfigValues }>(key, `/admin/plugins/${plugin.id}/configure`);
  const [typed, setTyped] = useState<Record<string, string | boolean>>({});
  const save = useMutation({
    mutationFn: () =>
      api<{ config: ConfigValues }>(`/admin/plugins/${plugin.id}/configure`, {
        method: 'POST',
        body: { config: configChanges(plugin.config_fields, config.data!.config, typed) },
      }),
    onSuccess: (d) => {
      client.setQueryData(key, d);
      setTyped({});
      notify('Configuration saved; the plugin has it now', 'success');
    },
  });
  if (config.isPending) return <Loading />;
  if (config.isError) return <ErrorNote error={config.error} />;
  const values = config.data.config;
  return (
    <SubmitForm label="Plugin configuration" onSubmit={() => save.mutate()}>
      <fieldset disabled={!canWrite} style={{ border: 0, padding: 0, margin: 0 }}>
        {plugin.config_fields.map((f) =>
          f.type === 'boolean' ? (
            <Field
              key={f.key}
              label={f.label}
              name={`config.${f.key}`}
              type="checkbox"
              checked={Boolean(typed[f.key] ?? values[f.key])}
              onChange={(e) => setTyped({ ...typed, [f.key]: e.target.checked })}
              hint={f.description}
              error={save.error}
            />
          ) : f.secret ? (
            <Field
              key={f.key}
              label={`${f.label}${f.required ? ' (required)' : ''}`}
              name={`config.${f.key}`}
              type="password"
              autoComplete="off"
              placeholder={values[f.key] ? `${values[f.key]} (saved; type to replace)` : 'not set'}
              value={String(typed[f.key] ?? '')}
              onChange={(e) => setTyped({ ...typed, [f.key]: e.target.value })}
              hint={f.description ?? 'Stored encrypted; never shown again.'}
              error={save.error}
            />
          ) : (
            <Field
              key={f.key}
              label={`${f.label}${f.required ? ' (required)' : ''}`}
              name={`config.${f.key}`}
              type={f.type === 'number' ? 'number' : 'text'}
              value={String(typed[f.key] ?? values[f.key] ?? '')}
              onChange={(e) => setTyped({ ...typed, [f.key]: e.target.value })}
              hint={f.description}
              error={save.error}
            />
          ),
        )}
        <ErrorNote error={save.error} skipField />
        {canWrite && (
          <button
            type="submit"
            className="btn btn-primary"
            disabled={save.isPending || Object.keys(typed).length === 0}
          >
            Save configuration
          </button>
        )}
      </fieldset>
    </SubmitForm>
  );
}
