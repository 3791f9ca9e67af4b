/** `?safe-mode=1` at boot (or any later page): no extension is loaded for the rest of the visit. */
const KEY = 'emporium.safe-mode';

export function bootSafeMode(search: string): boolean {
  const param = new URLSearchParams(search).get('safe-mode');
  if (param === '1') sessionStorage.setItem(KEY, '1');
  if (param === '0') sessionStorage.removeItem(KEY);
  return sessionStorage.getItem(KEY) === '1';
}

export let safeMode = false;

export function initSafeMode(): void {
  safeMode = bootSafeMode(window.location.search);
}
