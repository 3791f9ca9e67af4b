/**
 * What the AdminApi.fetch bridge lets an extension ask for: a path of the admin API (never the
 * panel's own session routes, never another origin) with GET, or a method its manifest declares.
 */
export type BridgeVerdict = { ok: true; path: string; method: string } | { ok: false; status: number; message: string };

export function bridgeRequest(path: unknown, method: unknown, declared: readonly string[] = []): BridgeVerdict {
  const m = typeof method === 'string' ? method.toUpperCase() : 'GET';
  if (typeof path !== 'string' || !path.startsWith('/admin/') || path.length > 2000) {
    return { ok: false, status: 400, message: 'AdminApi.fetch takes a path under /admin/' };
  }
  // Resolve against a dummy origin: `..`, `//host`, `\` and encoded tricks must not leave /admin/.
  const url = new URL(path, 'http://panel.invalid');
  if (
    url.origin !== 'http://panel.invalid' ||
    !url.pathname.startsWith('/admin/') ||
    url.pathname.startsWith('/admin/panel/') ||
    // The server decodes the path before routing (`/admin/%70anel/…` is `/admin/panel/…`), so a
    // path whose meaning hides behind an escape is refused; query strings may carry escapes.
    /%|\\/.test(path.split('?')[0])
  ) {
    return { ok: false, status: 400, message: 'AdminApi.fetch takes a path under /admin/' };
  }
  if (m !== 'GET' && !declared.includes(m)) {
    return { ok: false, status: 403, message: `This extension may only read (GET); its manifest does not allow ${m}` };
  }
  return { ok: true, path: url.pathname + url.search, method: m };
}

/** A bundle URL the panel will load: only the API's own admin-bundle route for that plugin. */
export function isBundleUrl(url: string, pluginId: string): boolean {
  return url === `/admin/plugins/${encodeURIComponent(pluginId)}/admin-bundle`;
}
