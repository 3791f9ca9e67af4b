import { describe, expect, it } from 'vitest';
import { parseWrk } from './client.ts';

const report = (extra: string) => `Running 10s test @ http://127.0.0.1:9300/store/products?limit=20
  1 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   840.12us    1.02ms  21.35ms   95.12%
    Req/Sec    11.10k   512.33    12.01k    71.00%
  Latency Distribution
     50%  612.00us
     75%  790.00us
     90%    1.21ms
     99%    4.80ms
  110513 requests in 10.00s, 6.13GB read
${extra}Requests/sec:  11050.77
Transfer/sec:    627.60MB
`;

describe("wrk's report", () => {
  it('gives requests per second and the p50/p99 latency in ms', () => {
    expect(parseWrk(report(''))).toEqual({ 'req/s': 11051, 'p50 ms': 0.61, 'p99 ms': 4.8, non2xx: 0, errors: 0 });
  });

  it('counts answers other than 2xx and every kind of socket error', () => {
    const r = parseWrk(
      report('  Socket errors: connect 1, read 2, write 0, timeout 4\n  Non-2xx or 3xx responses: 37\n'),
    );
    expect(r.non2xx).toBe(37);
    expect(r.errors).toBe(7);
  });

  it('reads latencies given in seconds', () => {
    expect(parseWrk(report('').replace('4.80ms', '1.50s'))['p99 ms']).toBe(1500);
  });

  it('refuses a report without a rate (wrk could not connect)', () => {
    expect(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(/Requests\/sec/);
  });
});
