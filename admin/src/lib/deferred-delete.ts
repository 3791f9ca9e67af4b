/**
 * Delete with undo: the row disappears at once, the DELETE is sent only when the undo window
 * has passed (or the page is left, with a keepalive request). Undo simply cancels the timer,
 * so nothing needs restoring on the server.
 */
type Listener = () => void;

interface Pending {
  timer: ReturnType<typeof setTimeout>;
  send: (keepalive: boolean) => void;
}

const pending = new Map<string, Pending>();
const listeners = new Set<Listener>();
let version = 0;
const emit = () => {
  version++;
  for (const l of listeners) l();
};

/** Changes whenever a delete is scheduled, undone or sent (a useSyncExternalStore snapshot). */
export function deletesVersion(): number {
  return version;
}

export function scheduleDelete(id: string, send: (keepalive: boolean) => void, ms = 6000): void {
  cancelDelete(id);
  const timer = setTimeout(() => {
    pending.delete(id);
    send(false);
    emit();
  }, ms);
  pending.set(id, { timer, send });
  emit();
}

/** Undo: true when the delete had not been sent yet. */
export function cancelDelete(id: string): boolean {
  const p = pending.get(id);
  if (!p) return false;
  clearTimeout(p.timer);
  pending.delete(id);
  emit();
  return true;
}

export function isPendingDelete(id: string): boolean {
  return pending.has(id);
}

export function subscribeDeletes(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Leaving the page sends what is still waiting, so an undo window never loses a delete. */
export function flushDeletes(): void {
  for (const [id, p] of pending) {
    clearTimeout(p.timer);
    pending.delete(id);
    p.send(true);
  }
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', flushDeletes);
