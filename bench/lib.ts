import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';

/**
 * Shared by the benchmark scripts: with DATABASE_URL set, a freshly recreated database `name`
 * on that server (its URL); without, undefined (the script then uses PGlite in a temp dir).
 */
export async function freshBenchDatabase(name: string): Promise<string | undefined> {
  const base = process.env.DATABASE_URL;
  if (!base) return undefined;
  const url = new URL(base);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  url.pathname = `/${name}`;
  return url.toString();
}

/** The real server (`src/main.ts`) as a child process, so its CPU and memory are its own. */
export function startServer(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn', NODE_ENV: 'development' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
