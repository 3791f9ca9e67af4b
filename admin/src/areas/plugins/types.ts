import type { Item, Ok } from '../../api/types.ts';

export type ConfigField = Item<Plugin['config_fields']>;

export type Plugin = Item<Ok<'/admin/plugins'>['plugins']>;

export type ConfigValues = Record<string, string | number | boolean | null>;

/** Still working in the background: poll until it settles. */
export const busy = (p: Pick<Plugin, 'status'>) => p.status === 'installing' || p.status === 'updating';

/**
 * What the configure form sends: only the fields that changed. A secret comes back masked
 * (`••••1234`); unless the operator typed a new one it is not sent, so it keeps its value.
 */
export function configChanges(
  fields: ConfigField[],
  before: ConfigValues,
  typed: Record<string, string | boolean>,
): ConfigValues {
  const out: ConfigValues = {};
  for (const f of fields) {
    const now = typed[f.key];
    if (now === undefined) continue;
    let value: string | number | boolean | null;
    if (f.type === 'boolean') value = Boolean(now);
    else if (now === '') value = null;
    else if (f.type === 'number') value = Number(now);
    else value = String(now);
    if (value === before[f.key] || (value === null && (before[f.key] === null || before[f.key] === undefined)))
      continue;
    out[f.key] = value;
  }
  return out;
}
