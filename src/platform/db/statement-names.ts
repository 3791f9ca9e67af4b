import { createHash } from 'node:crypto';

/** Past this many distinct statements per process, new ones run unprepared (a text that varies must not grow the cache). */
const MAX_STATEMENTS = 500;
const names = new Map<string, string>();

/** The prepared statement name of `text`: one per text, at most MAX_STATEMENTS per process. */
export function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < MAX_STATEMENTS) {
    name = `e_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}
