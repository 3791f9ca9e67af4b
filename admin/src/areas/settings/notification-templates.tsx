import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Card, ErrorNote, Field, Loading } from '../../components/ui.tsx';
import type { Template } from './notification-types.ts';
import type { Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

type Preview = Ok<'/admin/notification-templates/{name}/preview', 'post'>['preview'];

/**
 * A template rendered by the server (the words a provider would send) with its sample data, which
 * an admin may change. Rendering is a POST, which the API refuses to viewers: they see the data only.
 */
export function TemplatePreview() {
  const canWrite = useCanWrite();
  const templates = useApi<{ notification_templates: Template[] }>(
    ['notification-templates'],
    '/admin/notification-templates',
    undefined,
    { staleTime: Number.POSITIVE_INFINITY },
  );
  const [chosen, setChosen] = useState('');
  const [data, setData] = useState<Record<string, unknown> | null>(null);
  const [formError, setFormError] = useState<unknown>(null);
  const list = templates.data?.notification_templates ?? [];
  const template = list.find((t) => t.name === chosen) ?? list[0];
  const preview = useQuery({
    queryKey: ['notification-preview', template?.name, data],
    queryFn: ({ signal }) =>
      api<{ preview: Preview }>(`/admin/notification-templates/${encodeURIComponent(template!.name)}/preview`, {
        method: 'POST',
        body: data ? { data } : {},
        signal,
      }),
    enabled: canWrite && !!template,
  });

  function apply(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const raw = String(new FormData(e.currentTarget).get('data') ?? '');
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      setFormError(null);
      setData(parsed as Record<string, unknown>);
    } catch {
      setFormError(new ApiError(400, 'invalid_data', 'The data must be a JSON object.', 'data'));
    }
  }

  if (templates.isPending) return <Card title="Templates">{<Loading />}</Card>;
  if (templates.isError || !template)
    return (
      <Card title="Templates">
        <ErrorNote error={templates.error} />
      </Card>
    );
  const error = formError ?? preview.error;
  return (
    <Card title="Templates">
      <form className="template-form" onSubmit={apply}>
        <Field
          label="Template"
          name="template"
          as="select"
          value={template.name}
          hint={template.description}
          onChange={(e) => {
            setChosen(e.target.value);
            setData(null);
            setFormError(null);
          }}
        >
          {list.map((t) => (
            <option key={t.name} value={t.name}>
              {t.name}
            </option>
          ))}
        </Field>
        <Field
          key={template.name}
          label="Data (JSON)"
          name="data"
          as="textarea"
          rows={8}
          readOnly={!canWrite}
          defaultValue={JSON.stringify(template.sample_data, null, 2)}
          hint={canWrite ? 'The sample data; change it and preview again.' : undefined}
          error={error}
        />
        {canWrite && (
          <button type="submit" className="btn">
            Preview
          </button>
        )}
      </form>
      {!canWrite ? (
        <p className="muted">Previews are rendered by the server on request, which needs the admin role.</p>
      ) : preview.isPending ? (
        <Loading label="Rendering" />
      ) : preview.isError ? (
        <ErrorNote error={preview.error} skipField />
      ) : (
        <section className="template-preview" aria-label="Preview">
          <p>
            <strong>Subject:</strong> {preview.data.preview.subject}
          </p>
          <div className="preview-parts">
            <figure aria-label="Text version">
              <pre>{preview.data.preview.text}</pre>
            </figure>
            {/* The HTML part in a sandbox: no scripts, no same-origin, nothing of the panel's. */}
            <iframe title="HTML version" sandbox="" srcDoc={preview.data.preview.html} />
          </div>
        </section>
      )}
    </Card>
  );
}
