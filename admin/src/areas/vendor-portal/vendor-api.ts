import { api, type RequestOptions } from '../../lib/api.ts';

/**
 * A vendor signs in to the panel with one of its API tokens (`mvk_…`, shown once when it verified
 * its address or made the token). The token stays in this tab's sessionStorage and goes out as
 * `Authorization: Bearer` on the vendor's own routes; the operator's cookies play no part, and a
 * vendor token opens no other admin route (the server refuses it everywhere else).
 */
const KEY = 'emporium.vendor-token';

export const vendorToken = (): string | null => sessionStorage.getItem(KEY);
export const setVendorToken = (token: string) => sessionStorage.setItem(KEY, token);
export const clearVendorToken = () => sessionStorage.removeItem(KEY);

export function vendorApi<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  return api<T>(path, {
    ...opts,
    quiet401: true,
    headers: { ...opts.headers, authorization: `Bearer ${vendorToken() ?? ''}` },
  });
}
