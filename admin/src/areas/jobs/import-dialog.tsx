import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorNote } from '../../components/ui.tsx';
import type { Query } from '../../lib/api.ts';
import { JobProgress } from './job-progress.tsx';
import { confirmImport, type ImportPreview, startExport, uploadProductCsv } from './jobs-api.ts';

type Step = { at: 'pick' } | { at: 'preview'; preview: ImportPreview } | { at: 'running'; id: string };

/** Products → Import: upload a CSV, read the preview (what is created, updated, left out), confirm, watch it run. */
export function ImportDialogButton() {
  const ref = useRef<HTMLDialogElement>(null);
  const [step, setStep] = useState<Step>({ at: 'pick' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const client = useQueryClient();
  const close = () => {
    ref.current?.close();
    if (step.at === 'running') void client.invalidateQueries({ queryKey: ['products'] });
    setStep({ at: 'pick' });
    setError(null);
  };
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="btn" onClick={() => ref.current?.showModal()}>
        Import
      </button>
      <dialog ref={ref} className="dialog dialog-wide" aria-label="Import products" onClose={close}>
        <h2>Import products</h2>
        {step.at === 'pick' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const file = (new FormData(e.currentTarget).get('file') as File | null) ?? null;
              if (!file?.size) return setError(new Error('Choose a CSV file first.'));
              void run(async () => setStep({ at: 'preview', preview: await uploadProductCsv(file) }));
            }}
          >
            <p className="muted">
              A CSV in Medusa’s columns (Product Handle, Product Title, Variant Sku, Variant Price EUR, Variant Option 1
              Name/Value, …), one row per variant. Nothing is written until you confirm.
            </p>
            <label className="field">
              <span>CSV file</span>
              <input type="file" name="file" accept=".csv,text/csv" />
            </label>
            <ErrorNote error={error} />
            <div className="actions">
              <button type="button" className="btn" onClick={close}>
                Cancel
              </button>
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {busy ? 'Reading…' : 'Upload and preview'}
              </button>
            </div>
          </form>
        )}
        {step.at === 'preview' && <Preview preview={step.preview} />}
        {step.at === 'preview' && (
          <>
            <ErrorNote error={error} />
            <div className="actions">
              <button type="button" className="btn" onClick={close}>
                Cancel
              </button>
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy || step.preview.summary.toCreate + step.preview.summary.toUpdate === 0}
                onClick={() =>
                  run(async () => {
                    await confirmImport(step.preview.transaction_id);
                    setStep({ at: 'running', id: step.preview.transaction_id });
                  })
                }
              >
                Confirm import
              </button>
            </div>
          </>
        )}
        {step.at === 'running' && (
          <>
            <JobProgress id={step.id} />
            <div className="actions">
              <button type="button" className="btn" onClick={close}>
                Close
              </button>
            </div>
          </>
        )}
      </dialog>
    </>
  );
}

function Preview({ preview }: { preview: ImportPreview }) {
  const s = preview.summary;
  return (
    <div className="import-preview">
      <ul className="import-counts">
        <li>
          <strong>{s.toCreate}</strong> to create
        </li>
        <li>
          <strong>{s.toUpdate}</strong> to update
        </li>
        <li>
          <strong>{s.rows_with_errors}</strong> of {s.rows} rows left out
        </li>
      </ul>
      {s.errors.length > 0 && (
        <>
          <table className="table">
            <caption>Rows with errors (nothing of these products is written)</caption>
            <thead>
              <tr>
                <th>Row</th>
                <th>Column</th>
                <th>Reason</th>
              </tr>
            </thead>
            <tbody>
              {s.errors.slice(0, 8).map((e) => (
                <tr key={`${e.row}-${e.column}`}>
                  <td>{e.row}</td>
                  <td>{e.column}</td>
                  <td>{e.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <a className="btn btn-small" href={`/admin/jobs/${preview.transaction_id}/files/errors`} download>
            Download error report ({s.errors.length} {s.errors.length === 1 ? 'issue' : 'issues'})
          </a>
        </>
      )}
      {s.warnings.length > 0 && (
        <p className="muted">
          {s.warnings.length} warning(s): {s.warnings[0].reason}
          {s.warnings.length > 1 ? ', …' : ''}
        </p>
      )}
      {s.ignored_columns.length > 0 && <p className="muted">Columns not imported: {s.ignored_columns.join(', ')}</p>}
    </div>
  );
}

/** Export the list as it is filtered: a background job, then its CSV to download. */
export function ExportDialogButton({
  resource,
  query,
}: {
  resource: 'products' | 'orders' | 'customers';
  query: Query;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [id, setId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const start = async () => {
    setError(null);
    setId(null);
    ref.current?.showModal();
    try {
      setId((await startExport(resource, query)).transaction_id);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <button type="button" className="btn" onClick={start}>
        Export
      </button>
      <dialog ref={ref} className="dialog" aria-label={`Export ${resource}`}>
        <h2>Export {resource}</h2>
        <p className="muted">
          The {resource} your filters show, as CSV. It runs in the background: you may close this.
        </p>
        <ErrorNote error={error} />
        {id && <JobProgress id={id} />}
        <div className="actions">
          <button type="button" className="btn" onClick={() => ref.current?.close()}>
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}
