import { errors } from '../../../platform/http/errors.ts';

const MARKETPLACE_ID = /^@[a-z0-9]+(-[a-z0-9]+)*\/[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The rest of a wildcard path after `/feed/`, `/download/` or `/artifacts/`. A marketplace id
 * has a slash (`@acme/stripe`): clients send it as is or encoded (`@acme%2Fstripe`).
 */
function segments(rest: string): string[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    decoded = rest;
  }
  return decoded.split('/');
}

function checkedId(id: string): string {
  if (!MARKETPLACE_ID.test(id)) throw errors.notFound('marketplace_item_not_found', { marketplace_id: id });
  return id;
}

/** `@acme/stripe` → the marketplace id (404 when it cannot be one). */
export function parseItemPath(rest: string): string {
  return checkedId(segments(rest).join('/'));
}

/** `@acme/stripe/1.2.0` → marketplace id and version. */
export function parseVersionPath(rest: string): { marketplaceId: string; version: string } {
  const parts = segments(rest);
  if (parts.length !== 3) throw errors.notFound('marketplace_item_not_found', { marketplace_id: parts.join('/') });
  return { marketplaceId: checkedId(`${parts[0]}/${parts[1]}`), version: parts[2] };
}
