import { type ChildProcess, fork } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PluginSandboxConfig } from '../../../platform/config.ts';
import { PluginTimeoutError } from '../timeout.ts';
import type { PluginHealth } from './health.ts';
import {
  CTX_OPS,
  type CtxOp,
  type HostCalls,
  type HostOp,
  type HostRequest,
  type Reply,
  type UntrustedCtx,
  type WireError,
} from './protocol.ts';
import { runnerFile } from './runner-path.ts';

/** The plugin's process is gone (crashed, killed, stopped): the call cannot be served now. */
export class PluginUnavailableError extends Error {}

/** An error the plugin's code threw, as it crossed the channel (message, and status/code if set). */
export class PluginCallError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
    readonly phase?: string,
  ) {
    super(message);
  }
}

/** How long a process that missed a deadline gets to answer a ping before it counts as blocked. */
const PING_MS = 1_000;
const STDERR_TAIL = 2_000;

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export interface SpawnOptions {
  manifestId: string;
  /** The plugin's extracted folder: the only place it may read from (besides the runner). */
  folder: string;
  /** `DATA_DIR/plugin-scratch/<manifest id>`: the only place it may write to. */
  scratch: string;
  sandbox: PluginSandboxConfig;
  health: PluginHealth;
  /** Serves the child's ctx calls; answers what it resolves with, refuses what it throws. */
  serve(msg: UntrustedCtx): Promise<unknown>;
  /** Called once when the process ends without the shop having stopped it. */
  onExit(reason: string): void;
  onOutput(stream: 'stdout' | 'stderr', line: string): void;
}

/**
 * One plugin's child process and the channel to it: requests with ids and deadlines, the child's
 * ctx calls served by the shop, and the exit watch. A request that misses its deadline makes the
 * shop ping the child: a process that cannot answer a ping (a busy loop) is killed, which the
 * crash policy then handles like any other death.
 */
export class PluginProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private stopping = false;
  private exited = false;
  private stderrTail = '';
  private markClosed!: () => void;
  /** Settles once the process has ended and its output was read. */
  private readonly closed = new Promise<void>((resolve) => {
    this.markClosed = resolve;
  });
  readonly pid: number | undefined;

  private constructor(private readonly opts: SpawnOptions) {
    const runner = runnerFile(opts.sandbox.runnerDir);
    const folder = opts.folder.endsWith(path.sep) ? opts.folder : opts.folder + path.sep;
    this.child = fork(runner, [], {
      env: {}, // none of the shop's variables (secrets, DATABASE_URL) reach the plugin
      execArgv: [
        '--experimental-permission',
        `--allow-fs-read=${path.dirname(runner)}${path.sep}`,
        `--allow-fs-read=${folder}`,
        `--allow-fs-read=${opts.scratch}${path.sep}`,
        `--allow-fs-write=${opts.scratch}${path.sep}`,
        `--max-old-space-size=${opts.sandbox.memoryMb}`,
        '--disable-warning=ExperimentalWarning',
      ],
      cwd: opts.scratch, // relative paths land in the one writable folder
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.pid = this.child.pid;
    this.child.on('message', (msg) => this.onMessage(msg as Record<string, unknown>));
    this.child.on('error', () => {}); // a failed send or spawn also ends in 'close'
    // 'close' rather than 'exit': stderr is read to its end first (an out-of-memory report).
    this.child.on('close', (code, signal) => this.onChildExit(code, signal));
    for (const stream of ['stdout', 'stderr'] as const) {
      this.child[stream]?.setEncoding('utf8');
      this.child[stream]?.on('data', (chunk: string) => {
        if (stream === 'stderr') this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL);
        for (const line of chunk.split('\n')) if (line.trim()) opts.onOutput(stream, line);
      });
    }
  }

  static async spawn(opts: SpawnOptions): Promise<PluginProcess> {
    await mkdir(opts.scratch, { recursive: true });
    return new PluginProcess(opts);
  }

  get running(): boolean {
    return !this.exited;
  }

  /**
   * Asks the child to run `op`; rejects with PluginTimeoutError after `timeoutMs`, with
   * PluginCallError when the plugin's code threw, with PluginUnavailableError when the process is gone.
   */
  request<K extends HostOp>(
    op: K,
    args: HostCalls[K]['args'],
    timeoutMs: number,
    counted = true,
  ): Promise<HostCalls[K]['result']> {
    type T = HostCalls[K]['result'];
    if (this.exited) return Promise.reject(new PluginUnavailableError(`Plugin ${this.opts.manifestId} is not running`));
    const id = ++this.nextId;
    const started = performance.now();
    const health = this.opts.health;
    const work = new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new PluginTimeoutError(`plugin ${this.opts.manifestId} ${op} did not finish within ${timeoutMs} ms`));
        void this.checkAlive();
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.child.send({ t: 'req', id, op, args } as HostRequest, (err) => {
        if (err) this.settle(id, false, new PluginUnavailableError(`Plugin ${this.opts.manifestId}: ${err.message}`));
      });
    });
    if (!counted) return work;
    health.calls++;
    return work.then(
      (value) => {
        health.timeMs += performance.now() - started;
        return value;
      },
      (err) => {
        health.timeMs += performance.now() - started;
        if (err instanceof PluginTimeoutError) health.timeouts++;
        else if (!(err instanceof PluginCallError && err.status && err.status < 500)) health.errors++;
        throw err;
      },
    );
  }

  /**
   * Resolves once no call into the process is pending (or after `ms`): an unload lets the calls
   * in flight (a slow route, an event) finish, as they did when plugins ran in the shop's process.
   */
  async idle(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.pending.size && !this.exited && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  }

  /** Ends the process on purpose (unload, update, uninstall): no crash is reported. */
  stop(): Promise<void> {
    this.stopping = true;
    if (!this.exited) this.child.kill('SIGKILL');
    return this.closed;
  }

  /** A child that cannot answer a ping within PING_MS is stuck in synchronous code: kill it. */
  private async checkAlive(): Promise<void> {
    if (this.exited || this.stopping) return;
    try {
      await this.request('ping', {}, PING_MS, false);
    } catch (err) {
      if (err instanceof PluginTimeoutError && !this.exited) {
        this.killReason = `did not answer a ping within ${PING_MS} ms after a missed deadline (blocked event loop); killed`;
        this.child.kill('SIGKILL');
      }
    }
  }

  private killReason: string | undefined;

  private settle(id: number, ok: boolean, value: unknown): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (ok) p.resolve(value);
    else p.reject(value as Error);
  }

  private onMessage(msg: Record<string, unknown>): void {
    if (!msg || typeof msg !== 'object') return;
    if (msg.t === 'res' && typeof msg.id === 'number') {
      if (msg.ok) {
        this.settle(msg.id, true, msg.value);
        return;
      }
      const e = (msg.error ?? {}) as { message?: unknown; status?: unknown; code?: unknown; phase?: unknown };
      const err = new PluginCallError(
        typeof e.message === 'string' ? e.message : 'plugin error',
        typeof e.status === 'number' ? e.status : undefined,
        typeof e.code === 'string' ? e.code : undefined,
        typeof e.phase === 'string' ? e.phase : undefined,
      );
      this.settle(msg.id, false, err);
      return;
    }
    if (msg.t !== 'ctx' || typeof msg.op !== 'string') return;
    const id = typeof msg.id === 'number' ? msg.id : undefined;
    if (!(CTX_OPS as readonly string[]).includes(msg.op)) {
      if (id !== undefined)
        this.reply({ t: 'res', id, ok: false, error: { message: `Unknown ctx call "${msg.op.slice(0, 40)}"` } });
      return;
    }
    const args = (msg.args && typeof msg.args === 'object' ? msg.args : {}) as Record<string, unknown>;
    void this.opts.serve({ id, op: msg.op as CtxOp, args } as UntrustedCtx).then(
      (value) => id !== undefined && this.reply({ t: 'res', id, ok: true, value }),
      (err: Error) => id !== undefined && this.reply({ t: 'res', id, ok: false, error: ctxErrorJson(err) }),
    );
  }

  private reply(msg: Reply): void {
    if (!this.exited && this.child.connected) this.child.send(msg, () => {});
  }

  private onChildExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true;
    this.markClosed();
    const why = this.reason(code, signal);
    for (const id of [...this.pending.keys()]) this.settle(id, false, new PluginUnavailableError(why));
    if (!this.stopping) this.opts.onExit(why);
  }

  private reason(code: number | null, signal: NodeJS.Signals | null): string {
    if (this.killReason) return `Plugin ${this.opts.manifestId} ${this.killReason}`;
    const tail = this.stderrTail;
    const oom = /heap out of memory|Allocation failed/i.test(tail);
    const how = oom
      ? `ran out of memory (limit ${this.opts.sandbox.memoryMb} MB)`
      : `exited (${signal ? `signal ${signal}` : `code ${code}`})`;
    const last = tail.trim().split('\n').filter(Boolean).at(-1);
    return `Plugin ${this.opts.manifestId} process ${how}${!oom && last ? `: ${last.slice(0, 300)}` : ''}`;
  }
}

/**
 * A refused or failed ctx call as the plugin sees it: the message, the HTTP status a refusal
 * carries (403 for a right it lacks) and PostgreSQL's SQLSTATE (`42501` for a table it may not
 * read), so the plugin's code can tell them apart as it could in-process. Nothing else crosses.
 */
function ctxErrorJson(err: unknown): WireError {
  const e = (err ?? {}) as { message?: unknown; status?: unknown; code?: unknown; cause?: { code?: unknown } };
  const code = typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : undefined;
  return {
    message: typeof e.message === 'string' ? e.message : String(err),
    ...(typeof e.status === 'number' ? { status: e.status } : {}),
    ...(code ? { code } : {}),
  };
}
