import { ok } from '../../../platform/http/responses.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { consistency, entries, inclusion, signedTreeHead } from './log.ts';
import {
  ConsistencyQuery,
  ConsistencySchema,
  EntriesQuery,
  EntriesSchema,
  InclusionSchema,
  ProofQuery,
  SthQuery,
  TreeHeadSchema,
} from './schema.ts';

const tags = ['marketplace (transparency log)'];

/** Inside /store/marketplace: the transparency log, read by shops and by independent monitors. */
export function registerLogRoutes(scope: App, deps: AppDeps): void {
  scope.get(
    '/log/sth',
    {
      schema: {
        tags,
        summary: 'Signed tree head (now, or at tree_size)',
        querystring: SthQuery,
        response: ok(TreeHeadSchema),
      },
    },
    async (req) => signedTreeHead(req.ctx, deps.config.encryptionKey, req.query.tree_size),
  );
  scope.get(
    '/log/proof',
    {
      schema: {
        tags,
        summary: 'Inclusion proof of an entry (by leaf_index, or marketplace_id + version) in the tree of tree_size',
        querystring: ProofQuery,
        response: ok(InclusionSchema),
      },
    },
    async (req) => inclusion(req.ctx, req.query),
  );
  scope.get(
    '/log/consistency',
    {
      schema: {
        tags,
        summary: 'Consistency proof between two tree sizes',
        querystring: ConsistencyQuery,
        response: ok(ConsistencySchema),
      },
    },
    async (req) => consistency(req.ctx, req.query.first, req.query.second),
  );
  scope.get(
    '/log/entries',
    {
      schema: {
        tags,
        summary: 'Log entries [start, end), at most 1000 a call',
        querystring: EntriesQuery,
        response: ok(EntriesSchema),
      },
    },
    async (req) => entries(req.ctx, req.query.start ?? 0, req.query.end),
  );
}
