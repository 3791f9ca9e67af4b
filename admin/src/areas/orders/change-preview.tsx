import { money } from '../../lib/format.ts';
import type { Order } from './types.ts';

/**
 * What a pending order change will move, as the server previews it (`order_preview`): the money
 * (order total before and after, what was paid, what the customer owes or is owed) and the stock
 * each line gives or takes. Shared by the edit, return, exchange and claim actions.
 */

export interface PreviewAction {
  action: string;
  reference_id: string | null;
  amount?: number;
  details: Record<string, unknown>;
}
export interface Preview {
  items: { id: string; title: string; quantity: number; unit_price: number; actions?: PreviewAction[] }[];
  summary: Order['summary'];
}
export type ChangeKind = 'edit' | 'return' | 'exchange' | 'claim';

const quantityOf = (acts: PreviewAction[], kind: string) =>
  acts.filter((a) => a.action === kind).reduce((s, a) => s + Number(a.details.quantity ?? 0), 0);

/** The stock lines a change moves: units taken for added or raised lines, put back, expected back, claimed. */
export function stockMoves(order: Order, preview: Preview, kind: ChangeKind): string[] {
  const before = new Map(order.items.map((i) => [i.id, i.quantity]));
  return preview.items.flatMap((i) => {
    const acts = i.actions ?? [];
    const moves: string[] = [];
    const back = quantityOf(acts, 'RETURN_ITEM');
    if (back) moves.push(`${i.title}: ${back} expected back (restocked when received sellable)`);
    const claimed = quantityOf(acts, 'WRITE_OFF_ITEM');
    if (claimed) moves.push(`${i.title}: ${claimed} claimed`);
    if (kind === 'return') return moves;
    const was = before.get(i.id);
    if (was === undefined) {
      const free = kind === 'claim' ? ', sent at no charge' : '';
      moves.push(`${i.title}: ${i.quantity} taken from stock (new line${free})`);
    } else if (i.quantity !== was) {
      const delta = i.quantity - was;
      moves.push(`${i.title}: ${delta > 0 ? `${delta} taken from stock` : `${-delta} put back in stock`}`);
    }
    return moves;
  });
}

/** A requested return moves no money until its items arrive: what they are worth once received sellable. */
function owedOnReceipt(order: Order, preview: Preview): number {
  return preview.items.reduce((sum, i) => {
    const line = order.items.find((x) => x.id === i.id);
    return sum + quantityOf(i.actions ?? [], 'RETURN_ITEM') * (line?.unit_price ?? 0);
  }, 0);
}

export function ChangePreview({ order, preview, kind }: { order: Order; preview: Preview; kind: ChangeKind }) {
  const c = (n: number) => money(n, order.currency_code);
  const stock = stockMoves(order, preview, kind);
  const diff = preview.summary.pending_difference;
  const change = preview.summary.current_order_total - order.summary.current_order_total;
  // Money the customer is asked for beyond what their payments still hold uncaptured.
  const held = order.summary.authorized_total - order.summary.captured_total;
  const toCollect = Math.max(0, diff - Math.max(0, held));
  return (
    <section aria-label="Preview" className="card">
      <h3>Preview</h3>
      <dl className="kv">
        <dt>Order total now</dt>
        <dd>{c(order.summary.current_order_total)}</dd>
        <dt>Order total after</dt>
        <dd>{c(preview.summary.current_order_total)}</dd>
        {(kind === 'exchange' || kind === 'claim') && (
          <>
            <dt>{kind === 'exchange' ? 'Exchange difference' : 'Claim credit'}</dt>
            <dd>
              {change > 0 ? '+' : change < 0 ? '−' : ''}
              {c(Math.abs(change))}
            </dd>
          </>
        )}
        <dt>Paid</dt>
        <dd>{c(preview.summary.paid_total)}</dd>
        {preview.summary.refunded_total > 0 && (
          <>
            <dt>Refunded</dt>
            <dd>{c(preview.summary.refunded_total)}</dd>
          </>
        )}
        <dt>
          <strong>{diff > 0 ? 'Customer owes' : diff < 0 ? 'Refund due' : 'Difference'}</strong>
        </dt>
        <dd>
          <strong>{c(Math.abs(diff))}</strong>
        </dd>
        {kind === 'return' && (
          <>
            <dt>Refund due once received</dt>
            <dd>{c(owedOnReceipt(order, preview))}</dd>
          </>
        )}
      </dl>
      {kind !== 'return' && toCollect > 0 && (
        <p className="hint">
          On confirmation the customer is asked to pay {c(toCollect)} (a payment request on the order).
        </p>
      )}
      {kind !== 'return' && diff < 0 && <p className="hint">Refund {c(-diff)} from the Refund card once confirmed.</p>}
      <ul aria-label="Stock">{stock.length ? stock.map((s) => <li key={s}>{s}</li>) : <li>No stock moves</li>}</ul>
    </section>
  );
}
