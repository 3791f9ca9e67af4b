import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { Badge, Card, ConfirmButton, ErrorNote } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useOrderAction } from './change-flow.tsx';
import type { Order } from './types.ts';

/**
 * What the customer still has to pay after the sale (an exchange or an edit that costs more, a draft
 * converted unpaid): the order's open payment collections. The customer pays one through the
 * storefront; the desk marks it paid when the money came another way.
 */
export function PaymentRequests({ order, canWrite }: { order: Order; canWrite: boolean }) {
  const notify = useToast();
  const refresh = useOrderAction(order.id);
  const markPaid = useMutation({
    mutationFn: (id: string) =>
      api(`/admin/payment-collections/${id}/mark-as-paid`, { method: 'POST', body: { order_id: order.id } }),
    onSuccess: () => refresh('Marked as paid', notify),
  });
  const open = order.payment_collections.filter(
    (pc) => pc.order_id && (pc.status === 'not_paid' || pc.status === 'awaiting'),
  );
  if (!open.length) return null;
  return (
    <Card title="Awaiting payment">
      {open.map((pc) => (
        <div key={pc.id} className="actions">
          <span>
            Payment request <strong>{money(pc.amount, pc.currency_code)}</strong> <Badge value={pc.status} />
          </span>
          {canWrite && pc.status === 'not_paid' && (
            <ConfirmButton
              label="Mark as paid"
              title={`Mark ${money(pc.amount, pc.currency_code)} as paid?`}
              body="Use this when the customer paid outside the shop (cash, bank transfer): a manual payment of the amount is recorded as captured."
              confirmLabel="Mark as paid"
              disabled={markPaid.isPending}
              onConfirm={() => markPaid.mutate(pc.id)}
            />
          )}
        </div>
      ))}
      <ErrorNote error={markPaid.error} />
    </Card>
  );
}
