import fc from 'fast-check';

/** A JSON Schema as @fastify/swagger writes it into /openapi.json (the subset our routes use). */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  const?: unknown;
}

/** Strings a careless or hostile client sends: control characters, NUL, unicode, sizes, injection. */
export const nastyString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u0001\u001f\u007f',
    '\uFEFF',
    '\uD800', // a lone surrogate
    '😀🏳️‍🌈',
    'é'.repeat(300),
    "'; drop table products; --",
    '%00',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '{"__proto__":{"x":1}}',
    'x'.repeat(10_000),
    '-1',
    '1e309',
    'NaN',
    'null',
    'true',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

const deepObject = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

/** Any JSON value a client could send in place of another, including absurd nesting. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.constantFrom(null, true, false, 0, -1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1.5, [], {}),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(deepObject(40), deepObject(2_000), [[[[[[[[[[[]]]]]]]]]]]),
  fc.dictionary(nastyString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Values that satisfy `schema` (mostly): what a correct client sends. */
export function valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 1 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => valid(b, depth + 1)));
  if (schema.allOf?.length) return valid(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'email') return fc.emailAddress();
      // Schema-valid is not database-valid: NUL and control characters are strings too.
      return fc.oneof(
        {
          arbitrary: fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 24, 24) }),
          weight: 3,
        },
        {
          arbitrary: fc
            .constantFrom('a\u0000b', '\u0000', 'x\u0001\u001f', '\uD800x', '😀')
            .map((v) => v.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? 24)),
          weight: 1,
        },
      );
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 100_000, 2 ** 31 - 1) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valid(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object': {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) model[k] = valid(s, depth + 1);
      if (!Object.keys(model).length)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 });
      return fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values that break `schema` in one place, or entirely. */
export function invalid(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const props = schema?.properties;
  if (!props || !Object.keys(props).length) return nastyValue;
  const keys = Object.keys(props);
  return fc.oneof(
    nastyValue,
    // One field with a wrong or hostile value.
    fc
      .tuple(valid(schema), fc.constantFrom(...keys), nastyValue)
      .map(([v, k, bad]) => ({ ...(v as object), [k]: bad })),
    // An unknown field, possibly with a NUL in its name.
    fc.tuple(valid(schema), nastyString, nastyValue).map(([v, k, bad]) => ({ ...(v as object), [k || 'x']: bad })),
    // A required field missing.
    fc.tuple(valid(schema), fc.constantFrom(...keys)).map(([v, k]) => {
      const copy = { ...(v as Record<string, unknown>) };
      delete copy[k];
      return copy;
    }),
  );
}
