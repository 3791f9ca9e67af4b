export interface Vendor {
  id: string;
  name: string;
  email: string;
  namespaces: string[];
  trusted: boolean;
  commission_percent: number;
  payout_account: string | null;
}
export interface Version {
  id: string;
  version: string;
  status: 'in_review' | 'approved' | 'rejected' | 'revoked';
  review_reason: string | null;
  reviewed_at: string | null;
  published_at: string;
  rollout_percent: number;
  rollout_halted_at: string | null;
}
export interface Item {
  id: string;
  marketplace_id: string;
  name: string;
  price_eur: number;
  billing: 'one_time' | 'monthly' | 'yearly';
  published: boolean;
  version: string | null;
  versions: Version[];
}
export interface Stats {
  rating_average: number | null;
  rating_count: number;
  active_installs: number;
}
export interface Sale {
  id: string;
  kind: 'sale' | 'refund';
  marketplace_id: string;
  amount_eur: number;
  commission_eur: number;
  vendor_share_eur: number;
  currency: string;
  payout_status: string;
  created_at: string;
}
export interface License {
  id: string;
  key: string;
  marketplace_id: string;
  status: string;
  purchased_by: string;
  expires_at: string;
}
export interface Subscription {
  id: string;
  marketplace_id: string;
  billing: string;
  status: string;
  current_period_end: string;
  cancel_at_period_end: boolean;
}
export interface Ledger {
  vendor_id: string | null;
  currency: string;
  sales_eur: number;
  refunds_eur: number;
  commission_eur: number;
  vendor_share_eur: number;
  paid_out_eur: number;
  owed_eur: number;
}
