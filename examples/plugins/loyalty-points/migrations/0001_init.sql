-- Runs in the plugin's own schema; one row per order keeps the balance idempotent under redelivery.
create table loyalty_ledger (
  order_id text primary key,
  email text not null,
  points integer not null,
  created_at timestamptz not null default now()
);
create index loyalty_ledger_email_idx on loyalty_ledger (lower(email));
