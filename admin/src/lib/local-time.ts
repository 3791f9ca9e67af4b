/**
 * A `datetime-local` input's text (local time, to the minute) for an ISO instant, and back: the
 * windows of campaigns and price lists are typed in the operator's own time and sent as instants.
 */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant a `datetime-local` text names, or null when empty. */
export const fromLocalInput = (text: string): string | null => (text ? new Date(text).toISOString() : null);
