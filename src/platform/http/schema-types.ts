import { Type, type TSchema } from 'typebox';

/** ISO 8601 UTC in JSON; services may hand over a Date, the serializer writes the string. */
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });
export const NullableTimestamp = Type.Unsafe<Date | string | null>({ type: ['string', 'null'], format: 'date-time' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Metadata = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

/**
 * What a shopper may store as free-form JSON (a cart's or a line's metadata, a shipping method's
 * data): every change of a cart writes the whole cart into its `cart.updated` event, so each
 * such object is bounded by its size as JSON (validator.ts), not only by the 1 MB body cap.
 */
export const SHOPPER_JSON_MAX_BYTES = 4096;
const shopperJson = { 'x-max-json-bytes': SHOPPER_JSON_MAX_BYTES, description: 'at most 4 KiB as JSON' };
export const ShopperMetadata = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], shopperJson);
export const ShopperJsonObject = Type.Record(Type.String(), Type.Unknown(), shopperJson);

/** Path parameter `{id}`: bounded so a 10 kB id is a 400, not a query. */
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
