import { Type, type TSchema } from 'typebox';

/** ISO 8601 UTC in JSON; services may hand over a Date, the serializer writes the string. */
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });
export const NullableTimestamp = Type.Unsafe<Date | string | null>({ type: ['string', 'null'], format: 'date-time' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Metadata = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

/** Path parameter `{id}`: bounded so a 10 kB id is a 400, not a query. */
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
