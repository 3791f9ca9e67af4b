import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../../platform/http/schema-types.ts';

export const Sale = Type.Object({
  id: Type.String({ description: '`msale_…`' }),
  kind: Type.Unsafe<string>({ type: 'string', enum: ['sale', 'refund'] }),
  refund_of: Nullable(Type.String()),
  source_id: Type.String({ description: 'the checkout session, the provider invoice, or `refund:<sale id>`' }),
  marketplace_id: Type.String(),
  vendor_id: Nullable(Type.String()),
  license_id: Nullable(Type.String()),
  provider: Type.String(),
  amount_eur: Type.Number(),
  commission_eur: Type.Number({ description: "the marketplace's share" }),
  vendor_share_eur: Type.Number(),
  currency: Type.String(),
  payout_status: Type.Unsafe<string>({
    type: 'string',
    enum: ['pending', 'transferring', 'paid', 'none', 'canceled'],
  }),
  transfer_id: Nullable(Type.String({ description: 'Stripe transfer (`tr_…`) or reversal (`trr_…`)' })),
  paid_out_at: NullableTimestamp,
  payout_error: Nullable(Type.String()),
  created_at: Timestamp,
});

export const SaleEnvelope = Type.Object({ sale: Sale });
export const SaleList = listEnvelope('sales', Sale);
export const SalesQuery = Type.Object({
  ...pageQuery(20),
  vendor_id: Type.Optional(Type.String({ maxLength: 200 })),
});

export const Ledger = Type.Object({
  payouts: Type.Array(
    Type.Object({
      vendor_id: Nullable(Type.String({ description: "null: the operator's own items" })),
      currency: Type.String(),
      sales_eur: Type.Number(),
      refunds_eur: Type.Number(),
      commission_eur: Type.Number({ description: 'net of refunds' }),
      vendor_share_eur: Type.Number({ description: 'net of refunds' }),
      paid_out_eur: Type.Number({ description: 'transferred, net of reversals' }),
      owed_eur: Type.Number({ description: 'still to transfer (negative: a reversal is due)' }),
    }),
  ),
});
export const LedgerQuery = Type.Object({ vendor_id: Type.Optional(Type.String({ maxLength: 200 })) });

export const PayoutRunResult = Type.Object({
  transferred: Type.Integer(),
  reversed: Type.Integer(),
  waiting: Type.Integer({ description: 'owed rows left: no payout account yet, or the provider refused' }),
});

export const PayoutRunList = Type.Object({
  runs: Type.Array(
    Type.Object({
      period_start: Timestamp,
      owner: Type.String({ description: 'the instance that ran it last (host:pid:…)' }),
      started_at: Timestamp,
      finished_at: NullableTimestamp,
      lease_until: Timestamp,
      attempts: Type.Integer({ description: 'more than 1: taken over after an instance died mid-run' }),
      transferred: Type.Integer(),
      reversed: Type.Integer(),
      waiting: Type.Integer(),
    }),
    { description: 'newest period first, the last 30' },
  ),
});
