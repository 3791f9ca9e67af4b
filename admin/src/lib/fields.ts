/**
 * Which request field an API error message is about, so a form can show it next to that field.
 * Validation errors name it (`Field 'variants.0.title' is required`, `Expected type … for field
 * 'x'`); a few domain errors name it in their own words (`Product with handle: …`).
 */
const NAMED = /field '([^']+)'/i;
const UNRECOGNIZED = /Unrecognized fields: '([^']+)'/;
const DOMAIN: [RegExp, string][] = [
  [/^Product with handle\b/, 'handle'],
  [/^Product variant with sku\b/, 'sku'],
  [/currency_code/, 'currency_code'],
  [/\bemail\b/i, 'email'],
  [/\burl\b|\bURL\b/, 'url'],
];

export function fieldOf(message: string): string | null {
  const named = NAMED.exec(message) ?? UNRECOGNIZED.exec(message);
  if (named && named[1] !== '(root)') return named[1];
  for (const [pattern, field] of DOMAIN) if (pattern.test(message)) return field;
  return null;
}

/** True when an error about `field` belongs to the input named `name` (`variants.0.title` → `title` of variant 0). */
export function errorFor(errorField: string | null | undefined, name: string): boolean {
  if (!errorField) return false;
  return errorField === name || errorField.endsWith(`.${name}`) || errorField.startsWith(`${name}.`);
}
