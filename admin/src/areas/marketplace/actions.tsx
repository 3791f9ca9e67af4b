import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useCanWrite, useSession } from '../../lib/session.tsx';
import { ErrorNote } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { PLUGINS_KEY } from '../../extensions/slot.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

export type Entry = Item<Ok<'/admin/marketplace/feed'>['products']>;

type Checkout = Ok<'/admin/marketplace/checkout/{id}'>;

export const busyEntry = (e: Pick<Entry, 'status'>) => e.status === 'installing' || e.status === 'updating';

/** A purchase in progress: polls the checkout until paid, then the plugin installs by itself. */
function Purchase({ id, name }: { id: string; name: string }) {
  const client = useQueryClient();
  const status = useApi<Checkout>(['checkout', id], `/admin/marketplace/checkout/${id}`, undefined, {
    refetchInterval: (q) => (q.state.data?.checkout.status === 'open' || !q.state.data ? 2000 : false),
  });
  const s = status.data?.checkout.status;
  useEffect(() => {
    if (s === 'paid')
      void client
        .invalidateQueries({ queryKey: ['marketplace'] })
        .then(() => client.invalidateQueries({ queryKey: PLUGINS_KEY }));
  }, [s, client]);
  return (
    <div className="note note-info" role="status">
      {s === 'paid'
        ? `Paid: ${name} is installing with its license.`
        : s === 'expired'
          ? `The checkout for ${name} expired.`
          : `Waiting for the payment of ${name} in the other tab…`}
    </div>
  );
}

/**
 * Install (free) or Buy (paid) for one marketplace entry. Buy opens the provider's page in a new
 * tab during the click (pop-up blockers allow that), cut off from this page, then follows the purchase.
 */
export function EntryActions({ e }: { e: Entry }) {
  const canWrite = useCanWrite();
  const { user } = useSession();
  const client = useQueryClient();
  const notify = useToast();
  const [purchase, setPurchase] = useState<string | null>(null);
  const install = useMutation({
    mutationFn: () =>
      api('/admin/plugins/install', {
        method: 'POST',
        body: { marketplace_id: e.marketplace_id, version: e.version, license_key: null },
      }),
    onSuccess: async () => {
      notify(`Installing ${e.name}…`, 'info');
      await client.invalidateQueries({ queryKey: ['marketplace'] });
      await client.invalidateQueries({ queryKey: PLUGINS_KEY });
    },
  });
  const buy = useMutation({
    mutationFn: (_tab: Window | null) =>
      api<Ok<'/admin/marketplace/checkout', 'post'>>('/admin/marketplace/checkout', {
        method: 'POST',
        body: { marketplace_id: e.marketplace_id, version: e.version, customer_email: user.email },
      }),
    onSuccess: (checkout, tab) => {
      setPurchase(checkout.id);
      if (tab) tab.location.href = checkout.url;
      else notify('Allow pop-ups to open the payment page', 'error');
    },
    onError: (_err, tab) => tab?.close(),
  });
  const startPurchase = () => {
    const tab = window.open('about:blank', '_blank');
    if (tab) tab.opener = null;
    buy.mutate(tab);
  };
  if (!canWrite) return null;
  return (
    <>
      {!e.status &&
        (e.price_eur > 0 ? (
          <button
            type="button"
            className="btn btn-primary"
            disabled={buy.isPending || !!purchase}
            onClick={startPurchase}
          >
            Buy €{e.price_eur.toFixed(2)}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            disabled={install.isPending}
            onClick={() => install.mutate()}
          >
            Install
          </button>
        ))}
      {e.status === 'failed' && e.price_eur === 0 && (
        <button type="button" className="btn" onClick={() => install.mutate()}>
          Retry install
        </button>
      )}
      {purchase && <Purchase id={purchase} name={e.name} />}
      <ErrorNote error={install.error ?? buy.error} />
    </>
  );
}
