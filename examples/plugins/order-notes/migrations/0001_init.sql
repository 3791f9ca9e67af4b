-- Runs in the plugin's own schema (the shop sets the search_path), so names stay unqualified.
create table order_notes (
  id bigserial primary key,
  order_id text not null unique,
  note text not null,
  created_at timestamptz not null default now()
);
