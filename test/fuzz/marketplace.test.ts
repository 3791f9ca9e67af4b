import { MARKETPLACE_ENV } from '../../src/modules/marketplace/marketplace.testing.ts';
import { fuzzSurface } from './fuzz.testing.ts';

/** The marketplace role's own operations (items, feed, downloads, licenses, sales) with the shared ones. */
fuzzSurface('marketplace', MARKETPLACE_ENV, async () => ['@acme/hello-widget', 'mkt_does_not_exist', 'lic_nope', 'x']);
