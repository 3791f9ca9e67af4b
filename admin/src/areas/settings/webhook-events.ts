/** Spec section 6: the event groups and their events. */
export const EVENT_GROUPS: Record<string, string[]> = {
  order: ['placed', 'paid', 'fulfilled', 'shipped', 'refunded', 'cancelled'],
  cart: ['created', 'updated', 'abandoned'],
  customer: ['created', 'updated', 'deleted'],
  product: ['created', 'updated', 'deleted'],
  plugin: ['installed', 'uninstalled', 'updated', 'license_failed'],
};

/** The picker's choice as the API's `events`: a whole group becomes `group.*`, everything becomes `*`. */
export function eventsFromPicker(picked: Set<string>): string[] {
  const groups = Object.entries(EVENT_GROUPS);
  if (groups.every(([g, names]) => names.every((n) => picked.has(`${g}.${n}`)))) return ['*'];
  return groups.flatMap(([g, names]) =>
    names.every((n) => picked.has(`${g}.${n}`))
      ? [`${g}.*`]
      : names.filter((n) => picked.has(`${g}.${n}`)).map((n) => `${g}.${n}`),
  );
}
