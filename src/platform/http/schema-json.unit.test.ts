import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { jsonTextWriter, sqlJsonObject } from './schema-json.ts';

const Ref = Type.Object({ id: Type.String(), amount: Type.Number(), list: Type.Union([Type.String(), Type.Null()]) });

describe('schema-json: a response shape written from its TypeBox schema', () => {
  it('writes the keys in the schema’s order, whatever order the values come in', () => {
    expect(sqlJsonObject(Ref, { amount: 'pr.amount', list: 'null', id: 'pr.id' })).toBe(
      `json_build_object('id', pr.id, 'amount', pr.amount, 'list', null)`,
    );
    const write = jsonTextWriter(Ref);
    const text = write({ list: 'null', amount: '19.99', id: JSON.stringify('p"1') });
    expect(text).toBe('{"id":"p\\"1","amount":19.99,"list":null}');
    // The same text JSON.stringify writes for the object.
    expect(text).toBe(JSON.stringify({ id: 'p"1', amount: 19.99, list: null }));
  });
});
