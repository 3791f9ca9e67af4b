import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { Badge, ConfirmButton, ErrorNote, Field } from '../../components/ui.tsx';

export interface ReviewCheck {
  name: string;
  ok: boolean;
  detail: string;
}
export interface ReviewedVersion {
  id: string;
  version: string;
  status: 'in_review' | 'approved' | 'rejected' | 'revoked';
  review_reason: string | null;
  review_checks: { checks: ReviewCheck[]; permissions: string[] } | null;
}

export const failedChecksOf = (v: ReviewedVersion) => v.review_checks?.checks.filter((c) => !c.ok) ?? [];

/**
 * A version's review in the operator's item page: its status, the automatic checks it failed, and
 * while it is in review the decision. A version that failed a check (the operator's own upload
 * waits in review with them) is approved only with a reason, acknowledging the failed checks:
 * the server refuses it otherwise (`override`).
 */
export function VersionReview<T>({
  itemId,
  v,
  canWrite,
  onDecided,
}: {
  itemId: string;
  v: ReviewedVersion;
  canWrite: boolean;
  onDecided: (d: T, message: string) => void;
}) {
  const failed = failedChecksOf(v);
  const [reason, setReason] = useState('');
  const decide = useMutation({
    mutationFn: (action: 'approve' | 'reject') =>
      api<T>(`/admin/marketplace/items/${itemId}/versions/${v.id}/${action}`, {
        method: 'POST',
        body:
          action === 'reject'
            ? { reason }
            : { ...(reason.trim() ? { reason } : {}), ...(failed.length ? { override: true } : {}) },
      }),
    onSuccess: (d, action) =>
      onDecided(d, action === 'approve' ? `${v.version} approved: in the feed` : `${v.version} rejected`),
  });
  const open = canWrite && v.status === 'in_review';
  return (
    <div className="version-review">
      <Badge value={v.status} />
      {failed.length > 0 && (
        <ul className="plain" aria-label={`Failed checks of ${v.version}`}>
          {failed.map((c) => (
            <li key={c.name}>
              <strong>{c.name}</strong> failed: {c.detail || 'nothing declared'}
            </li>
          ))}
        </ul>
      )}
      {v.review_reason && !(v.status === 'in_review' && failed.length) && (
        <div className="muted">Reason: {v.review_reason}</div>
      )}
      {open && (
        <>
          <Field
            label={failed.length ? 'Why list it despite the failed checks' : 'Reason (needed to reject)'}
            name={`reason-${v.id}`}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={decide.error}
          />
          {failed.length ? (
            <ConfirmButton
              small
              label="Approve anyway"
              title={`List ${v.version} despite its failed checks?`}
              body={`It failed: ${failed.map((c) => c.name).join(', ')}. Approving sends it to every shop's feed, downloads and updates.`}
              disabled={decide.isPending || !reason.trim()}
              onConfirm={() => decide.mutate('approve')}
            />
          ) : (
            <button
              type="button"
              className="btn btn-small btn-primary"
              disabled={decide.isPending}
              onClick={() => decide.mutate('approve')}
            >
              Approve
            </button>
          )}{' '}
          <button
            type="button"
            className="btn btn-small"
            disabled={decide.isPending || !reason.trim()}
            onClick={() => decide.mutate('reject')}
          >
            Reject
          </button>
          <ErrorNote error={decide.error} skipField />
        </>
      )}
    </div>
  );
}
