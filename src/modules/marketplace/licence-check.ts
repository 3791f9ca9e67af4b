import type { Ctx } from '../../platform/context.ts';
import { checkLicence } from './licences.ts';

export interface DownloadLicenceQuery {
  marketplace_id: string;
  license_key: string;
  instance_id: string;
}

/**
 * Whether `license_key` is a valid, unrevoked, unexpired licence of this item for this
 * instance: the same verdict as POST /store/marketplace/license/verify.
 */
export async function verifyLicenceForDownload(ctx: Ctx, query: DownloadLicenceQuery): Promise<boolean> {
  return (await checkLicence(ctx, query)).ok;
}
