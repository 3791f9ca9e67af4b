import type { Ctx } from '../../platform/context.ts';

export interface DownloadLicenceQuery {
  marketplace_id: string;
  license_key: string;
  instance_id: string;
}

/**
 * Whether `license_key` is a valid, unrevoked, unexpired licence of this item for this
 * instance. Licences are not issued yet (paid checkout comes with the licence module), so no
 * paid download is allowed until then.
 */
export async function verifyLicenceForDownload(_ctx: Ctx, _query: DownloadLicenceQuery): Promise<boolean> {
  return false;
}
