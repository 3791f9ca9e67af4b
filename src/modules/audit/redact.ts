/** Keys whose values never reach the log: only their names are kept, among the fields sent. */
const SECRET = /pass(word)?|secret|token|api_?key|credential|authorization|private|encryption|cookie|^key$/i;

/** Keys whose values are kept (after values): prices, stock, statuses, roles and permissions. */
const WATCHED = new Set([
  'amount',
  'prices',
  'currency_code',
  'stocked_quantity',
  'incoming_quantity',
  'status',
  'payment_status',
  'fulfillment_status',
  'role',
  'permissions',
  'quantity',
]);

const MAX_FIELDS = 100;

export const isSecretKey = (key: string) => SECRET.test(key);

/**
 * The request body's field paths (`title`, `variants.prices`, two levels down) and the values of
 * the watched ones. A secret's value is never kept, wherever it sits, even under a watched key.
 */
export function bodyChanges(body: unknown): { fields: string[]; changes: Record<string, unknown> } {
  const fields: string[] = [];
  const changes: Record<string, unknown> = {};
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      if (fields.length >= MAX_FIELDS) return;
      const path = prefix ? `${prefix}.${key}` : key;
      fields.push(path);
      if (isSecretKey(key)) continue;
      if (WATCHED.has(key)) changes[path] = scrub(inner);
      else if (depth < 1) walk(inner, path, depth + 1);
    }
  };
  walk(body, '', 0);
  return { fields, changes };
}

/** A watched value with any secret inside it replaced. */
function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretKey(k) ? '[redacted]' : scrub(v)]));
}
