import type { Clock } from '../../../platform/clock.ts';
import type { PluginSandboxConfig } from '../../../platform/config.ts';
import { CrashPolicy } from './crash-policy.ts';

/**
 * What this instance saw of one installed plugin (by row id, so it survives restarts and updates
 * and starts over on a reinstall): calls into its process, their errors and time, its crashes.
 */
export interface PluginHealth {
  calls: number;
  errors: number;
  timeouts: number;
  timeMs: number;
  restarts: number;
  crashes: number;
  lastCrash: { at: Date; reason: string } | null;
  policy: CrashPolicy;
}

export class HealthBook {
  private readonly byRow = new Map<string, PluginHealth>();

  constructor(
    private readonly sandbox: PluginSandboxConfig,
    private readonly clock: Clock,
  ) {}

  of(rowId: string): PluginHealth {
    let h = this.byRow.get(rowId);
    if (!h) {
      const { maxCrashes, crashWindowMs: windowMs, restartDelayMs: baseDelayMs } = this.sandbox;
      const policy = new CrashPolicy({ maxCrashes, windowMs, baseDelayMs }, this.clock);
      h = { calls: 0, errors: 0, timeouts: 0, timeMs: 0, restarts: 0, crashes: 0, lastCrash: null, policy };
      this.byRow.set(rowId, h);
    }
    return h;
  }

  peek(rowId: string): PluginHealth | undefined {
    return this.byRow.get(rowId);
  }

  forget(rowId: string): void {
    this.byRow.delete(rowId);
  }
}
