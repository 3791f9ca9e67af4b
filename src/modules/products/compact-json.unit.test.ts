import { describe, expect, it } from 'vitest';
import { compactJson } from './compact-json.ts';

describe('compactJson', () => {
  it('drops the whitespace PostgreSQL writes between tokens', () => {
    expect(compactJson('{"a" : 1, "b" : [1, \n 2], "c" : {"d" : null}}')).toBe('{"a":1,"b":[1,2],"c":{"d":null}}');
  });

  it('keeps strings as they are, escaped quotes and backslashes included', () => {
    const value = { t: 'say "hi" : now, \\ ok', u: 'tab\there', v: '\\', w: ' , ' };
    const spaced = `{"t" : ${JSON.stringify(value.t)}, "u" : ${JSON.stringify(value.u)}, "v" : ${JSON.stringify(value.v)}, "w" : ${JSON.stringify(value.w)}}`;
    const compact = compactJson(spaced);
    expect(compact).toBe(JSON.stringify(value));
    expect(JSON.parse(compact)).toEqual(value);
  });

  it('works on fragments cut between tokens, and leaves compact text alone', () => {
    expect(compactJson('{"id" : "x", "inventory_quantity" : ')).toBe('{"id":"x","inventory_quantity":');
    expect(compactJson(', "updated_at" : ')).toBe(',"updated_at":');
    const done = '{"a":"b c"}';
    expect(compactJson(done)).toBe(done);
    expect(compactJson('')).toBe('');
  });
});
