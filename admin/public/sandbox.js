// The extension frame. It runs in an opaque origin (sandbox without allow-same-origin, and the
// CSP header says so too): no cookies, no token, no network (connect-src none). The panel sends
// one message with the verified bundle and a MessagePort; everything after goes over that port.
// Plain script (not a module): a module script would need CORS from an opaque origin.
(() => {
  // biome-ignore lint/suspicious/noRedundantUseStrict: a classic script (see above), so not strict without it
  'use strict';
  var RENDER_TIMEOUT_MS = 5000;
  var port = null;
  var rendered = false;
  var failed = false;
  var seq = 0;
  var pending = new Map();

  function post(msg) {
    if (port) port.postMessage(msg);
  }
  // A throw or rejection at any time, also after rendering (an event handler), fails the extension once.
  function fail(err) {
    if (failed) return;
    failed = true;
    post({ type: 'failed', message: String(err?.message || err || 'unknown error').slice(0, 300) });
  }

  window.addEventListener('error', (e) => {
    fail(e.error || e.message);
  });
  window.addEventListener('unhandledrejection', (e) => {
    fail(e.reason);
  });

  // Report the content height so the panel can size the frame.
  new ResizeObserver(() => {
    post({ type: 'height', height: Math.ceil(document.documentElement.scrollHeight) });
  }).observe(document.body);

  var api = {
    fetch: (path, init) =>
      new Promise((resolve, reject) => {
        var id = ++seq;
        pending.set(id, { resolve: resolve, reject: reject });
        post({
          type: 'fetch',
          id: id,
          path: String(path),
          method: init?.method || 'GET',
          body: init ? init.body : undefined,
        });
      }),
    notify: (message, kind) => {
      post({ type: 'notify', message: String(message).slice(0, 300), kind: kind });
    },
  };

  window.addEventListener('message', function init(event) {
    // Only the panel that framed us hands over the code and the port: another extension's frame
    // on the same page could otherwise post its own init first and take this one's rights.
    if (event.source !== window.parent) return;
    if (port || !event.data || event.data.type !== 'init' || !event.ports[0]) return;
    window.removeEventListener('message', init);
    port = event.ports[0];
    port.onmessage = (e) => {
      var msg = e.data;
      if (msg.type !== 'fetch-result') return;
      var p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.data);
      else p.reject(Object.assign(new Error(msg.message), { status: msg.status }));
    };
    var url = URL.createObjectURL(new Blob([event.data.source], { type: 'text/javascript' }));
    var timer = setTimeout(() => {
      fail(new Error(`did not finish rendering within ${RENDER_TIMEOUT_MS / 1000} s`));
    }, RENDER_TIMEOUT_MS);
    import(url)
      .then((mod) => {
        var ext = mod?.default;
        if (!ext || typeof ext.render !== 'function') throw new Error('the bundle does not default-export { render }');
        // The panel loads every extension in each slot it draws; one for another slot stays out.
        if (ext.slot !== event.data.slot) {
          clearTimeout(timer);
          post({ type: 'other-slot', slot: String(ext.slot) });
          return 'skip';
        }
        post({ type: 'title', title: ext.title ? String(ext.title).slice(0, 100) : null });
        return ext.render(document.getElementById('root'), api);
      })
      .then((result) => {
        clearTimeout(timer);
        if (result !== 'skip' && !failed && !rendered) {
          rendered = true;
          post({ type: 'rendered' });
        }
      })
      .catch((err) => {
        clearTimeout(timer);
        fail(err);
      });
  });
})();
