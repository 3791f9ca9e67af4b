import { Component, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError, api } from '../lib/api.ts';
import { useToast } from '../components/toasts.tsx';
import { bridgeRequest } from './policy.ts';
import { loadVerifiedBundle } from './verify.ts';
import type { Item, Ok } from '../api/types.ts';

export type ExtensionPlugin = Pick<
  Item<Ok<'/admin/plugins'>['plugins']>,
  'id' | 'name' | 'manifest_id' | 'admin_bundle'
> & {
  // The route documents the manifest as an open object; the bridge reads this one part of it.
  manifest: { admin_api?: { methods?: string[] } } | null;
};

/** Past this the extension counts as hung (the frame itself gives up at 5 s). */
const PANEL_TIMEOUT_MS = 8000;

type State =
  | { phase: 'loading' }
  | { phase: 'rendered' }
  | { phase: 'other-slot' }
  | { phase: 'failed'; message: string };

function FailedCard({ name, message }: { name: string; message: string }) {
  return (
    <div className="ext-card ext-failed" role="alert" data-extension-failed={name}>
      <h3>{name}: this extension failed</h3>
      <p className="muted">{message}</p>
      <p className="hint">
        The rest of the page is not affected. Open the admin with ?safe-mode=1 to load no extension.
      </p>
    </div>
  );
}

/** Any error of the React part around a frame stays in its card. */
class Boundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? (
      <FailedCard name={this.props.name} message={this.state.error.message} />
    ) : (
      this.props.children
    );
  }
}

/**
 * One extension in its own sandboxed frame (opaque origin: no cookies, no token, no network).
 * Its verified code goes in by postMessage with a private MessagePort; its AdminApi.fetch calls
 * come back over that port and the panel answers them within the bridge policy.
 */
function Frame({ plugin, slot }: { plugin: ExtensionPlugin; slot: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [state, setState] = useState<State>({ phase: 'loading' });
  const [height, setHeight] = useState(60);
  const [title, setTitle] = useState<string | null>(null);
  const notify = useToast();
  const name = plugin.name ?? plugin.manifest_id;

  useEffect(() => {
    let closed = false;
    const channel = new MessageChannel();
    const declared = plugin.manifest?.admin_api?.methods ?? [];
    const settle = (next: State) => !closed && setState((s) => (s.phase === 'failed' ? s : next));
    const timer = setTimeout(() => settle({ phase: 'failed', message: 'did not finish rendering' }), PANEL_TIMEOUT_MS);

    channel.port1.onmessage = async (e: MessageEvent) => {
      const msg = e.data ?? {};
      if (msg.type === 'rendered') {
        clearTimeout(timer);
        settle({ phase: 'rendered' });
      } else if (msg.type === 'failed') {
        clearTimeout(timer);
        settle({ phase: 'failed', message: String(msg.message) });
      } else if (msg.type === 'other-slot') {
        clearTimeout(timer);
        settle({ phase: 'other-slot' });
      } else if (msg.type === 'height' && typeof msg.height === 'number')
        setHeight(Math.min(Math.max(msg.height, 20), 2000));
      else if (msg.type === 'title') setTitle(typeof msg.title === 'string' ? msg.title : null);
      else if (msg.type === 'notify')
        notify(`${name}: ${String(msg.message)}`, msg.kind === 'error' || msg.kind === 'success' ? msg.kind : 'info');
      else if (msg.type === 'fetch') {
        const verdict = bridgeRequest(msg.path, msg.method, declared);
        const reply = (r: object) => channel.port1.postMessage({ type: 'fetch-result', id: msg.id, ...r });
        if (!verdict.ok) return reply({ ok: false, status: verdict.status, message: verdict.message });
        try {
          const data = await api(verdict.path, {
            method: verdict.method as 'GET',
            body: verdict.method === 'GET' ? undefined : msg.body,
          });
          reply({ ok: true, data });
        } catch (err) {
          reply({ ok: false, status: err instanceof ApiError ? err.status : 0, message: (err as Error).message });
        }
      }
    };

    (async () => {
      try {
        const source = await loadVerifiedBundle(plugin.id, plugin.admin_bundle!);
        const el = frame.current;
        if (closed || !el) return;
        const send = () => el.contentWindow?.postMessage({ type: 'init', source, slot }, '*', [channel.port2]);
        // The frame may already have loaded while the bundle was being fetched.
        if (el.dataset.loaded) send();
        else el.addEventListener('load', send, { once: true });
      } catch (err) {
        clearTimeout(timer);
        settle({ phase: 'failed', message: (err as Error).message });
      }
    })();
    return () => {
      closed = true;
      clearTimeout(timer);
      channel.port1.close();
    };
  }, [plugin, slot, name, notify]);

  if (state.phase === 'failed') return <FailedCard name={name} message={state.message} />;
  if (state.phase === 'other-slot') return null;
  return (
    <div className="ext-card" data-extension={name} aria-busy={state.phase === 'loading'}>
      <div className="ext-title">
        <span>{title ?? name}</span>
        <span>{name}</span>
      </div>
      <iframe
        ref={frame}
        title={`${name} extension`}
        src="/app/sandbox.html"
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        style={{ height }}
        onLoad={(e) => {
          (e.currentTarget as HTMLIFrameElement).dataset.loaded = '1';
        }}
      />
    </div>
  );
}

export function ExtensionFrame({ plugin, slot }: { plugin: ExtensionPlugin; slot: string }) {
  const name = plugin.name ?? plugin.manifest_id;
  return (
    <Boundary name={name}>
      <Frame plugin={plugin} slot={slot} />
    </Boundary>
  );
}
