import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Two validators: bodies are taken as sent (`5` is not the string `"5"`, unknown keys are errors),
 * while querystring, params and headers arrive as text and are coerced to the declared types.
 */
function makeAjv(coerce: boolean): Ajv {
  const opts: Options = {
    removeAdditional: false,
    useDefaults: true,
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    strict: false,
  };
  const ajv = new Ajv(opts);
  addFormats.default(ajv);
  ajv.addKeyword({ keyword: MAX_JSON_BYTES, schemaType: 'number', errors: true, validate: maxJsonBytes });
  return ajv;
}

/**
 * `{ 'x-max-json-bytes': n }` on a schema: the value, written as JSON, takes at most n bytes of
 * UTF-8. For free-form JSON a shopper stores (a cart's metadata): its keys and nesting are
 * the shopper's, so only its size can be bounded.
 */
export const MAX_JSON_BYTES = 'x-max-json-bytes';

function maxJsonBytes(max: number, data: unknown): boolean {
  const size = Buffer.byteLength(JSON.stringify(data) ?? '');
  if (size <= max) return true;
  maxJsonBytes.errors = [
    { keyword: MAX_JSON_BYTES, message: `must be at most ${max} bytes as JSON (got ${size})`, params: { limit: max } },
  ];
  return false;
}
maxJsonBytes.errors = [] as Partial<ErrorObject>[];

let ajvs: { strict: Ajv; coercing: Ajv } | undefined;

/**
 * Compiled on a route's first request, not at start: compiling every route's schemas up front was
 * the largest part of start-up, and most routes of an instance are never called.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let validate: ReturnType<Ajv['compile']> | undefined;
  return (data: unknown) => {
    if (!validate) {
      ajvs ??= { strict: makeAjv(false), coercing: makeAjv(true) };
      validate = (httpPart === 'body' ? ajvs.strict : ajvs.coercing).compile(schema as object);
    }
    return validate(data)
      ? { value: data }
      : { error: Object.assign(new Error('validation'), { validation: validate.errors }) };
  };
};

type BuildSerializer = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;

/** Fastify's own response serializers (fast-json-stringify), each built on its route's first response. */
export const lazySerializers: BuildSerializer = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      serialize ??= build(route) as (data: unknown) => string;
      return serialize(data);
    };
  };
};
