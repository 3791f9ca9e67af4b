/** How many digits the currency's minor unit has (2 for EUR, 0 for JPY); null for a code Intl does not know. */
function minorDigits(code: string): number | null {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency: code.toUpperCase() }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return null;
  }
}

/** Money is an integer in the currency's minor unit; Intl knows each currency's digits. */
export function money(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const code = (currency ?? 'eur').toUpperCase();
  const digits = minorDigits(code);
  if (digits === null) return `${amount} ${code}`;
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(amount / 10 ** digits);
}

/** A decimal typed by the operator ("19.9", "19,90") to minor units; null when it is not a number. */
export function toMinor(text: string, currency: string): number | null {
  const clean = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(clean)) return null;
  const digits = minorDigits(currency) ?? 2; // an unknown code: assume cents
  return Math.round(Number(clean) * 10 ** digits);
}

/** Minor units back to the decimal an input shows. */
export function fromMinor(amount: number, currency: string): string {
  const digits = minorDigits(currency) ?? 2;
  return (amount / 10 ** digits).toFixed(digits);
}

export function dateTime(value: string | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function date(value: string | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** "3 days ago", "in 4 days": for license checks and retry times. */
export function relative(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (!value) return '—';
  const diff = new Date(value).getTime() - now.getTime();
  const abs = Math.abs(diff);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1000],
  ];
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, ms] of units) if (abs >= ms || unit === 'second') return rtf.format(Math.round(diff / ms), unit);
  return '';
}

export function titleCase(value: string | null | undefined): string {
  if (!value) return '—';
  const s = value.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}
