import { Type, type TSchema } from 'typebox';

export const MAX_LIMIT = 1000;

/** `limit`/`offset` query fields. A limit above the maximum is clamped (the envelope says so). */
export function pageQuery(defaultLimit = 20) {
  return {
    limit: Type.Optional(
      Type.Integer({ minimum: 0, default: defaultLimit, description: `default ${defaultLimit}, at most ${MAX_LIMIT}` }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  };
}

export interface Page {
  limit: number;
  offset: number;
}

export function pageOf(query: { limit?: number; offset?: number }, defaultLimit = 20): Page {
  return { limit: Math.min(query.limit ?? defaultLimit, MAX_LIMIT), offset: query.offset ?? 0 };
}

/** `{ <plural>: T[], count, limit, offset }`, the list envelope of every list route. */
export function listEnvelope<K extends string, T extends TSchema>(plural: K, item: T) {
  return Type.Object({
    [plural]: Type.Array(item),
    count: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
  } as { [P in K]: ReturnType<typeof Type.Array<T>> } & Record<
    'count' | 'limit' | 'offset',
    ReturnType<typeof Type.Integer>
  >);
}

/**
 * A list envelope whose count may be an estimate: a text search most rows match is not counted
 * row by row (platform/db/search-breadth.ts); its answer then says `count_estimated: true`.
 */
export function searchListEnvelope<K extends string, T extends TSchema>(plural: K, item: T) {
  const list = listEnvelope(plural, item);
  return Type.Object({
    ...list.properties,
    count_estimated: Type.Optional(
      Type.Boolean({ description: 'Present (true) when `count` is an estimate: a `q` most rows match' }),
    ),
  });
}

export function deletedEnvelope(object: string) {
  return Type.Object({ id: Type.String(), object: Type.Literal(object), deleted: Type.Literal(true) });
}
