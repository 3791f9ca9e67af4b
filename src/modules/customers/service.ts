import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { isUniqueViolation } from '../../platform/db/pg-errors.ts';
import { newId } from '../../platform/ids.ts';
import { isCurrentToken } from '../auth/tokens.ts';
import { type Breadth, pageAndCount, walkLength } from '../../platform/db/search-breadth.ts';
import * as q from './queries.ts';
import { addressBooks } from './addresses.ts';
import type { AddressView } from './address-schema.ts';
import type { Executor } from '../../platform/db/database.ts';

export interface Customer {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  company_name: string | null;
  has_account: boolean;
  metadata: Record<string, unknown> | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  /** The address book (`/store/customers/me/addresses`), oldest first. */
  addresses: AddressView[];
}

/** What the storefront may change about itself: everything an admin may, except the email. */
export interface OwnCustomerInput {
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  company_name?: string | null;
  metadata?: Record<string, unknown> | null;
}

export interface CustomerInput extends OwnCustomerInput {
  email?: string;
}

export interface CustomerListQuery {
  q?: string;
  email?: string | string[];
  has_account?: boolean;
  groups?: string | string[];
}

function toCustomer(row: q.CustomerRow, addresses: AddressView[] = []): Customer {
  const { deleted_at: _deleted, ...rest } = row;
  return { ...rest, addresses };
}

/** Customers with their address books, in one query for the books. */
async function withAddresses(db: Executor, rows: q.CustomerRow[]): Promise<Customer[]> {
  const books = await addressBooks(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toCustomer(r, books.get(r.id)));
}

const notFound = (id: string) => errors.notFound('customer_not_found', { id });
const duplicateAccount = () =>
  errors.duplicate('invalid_request_error', { detail: 'Customer with this email already has an account' });

/** Runs a write that may hit the one-live-account-per-email index, wording that case as Medusa does. */
async function guardAccountEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw isUniqueViolation(err) ? duplicateAccount() : err;
  }
}

export async function listCustomers(
  ctx: Ctx,
  query: CustomerListQuery,
  page: Page,
): Promise<{ customers: Customer[]; count: number; count_estimated?: true }> {
  const filters: q.CustomerFilters = {
    q: query.q || undefined,
    // Medusa's convention: a comma-separated value is a list. Emails are stored lower-cased.
    email:
      query.email === undefined
        ? undefined
        : [query.email]
            .flat()
            .flatMap((e) => e.split(','))
            .filter(Boolean)
            .map((e) => e.toLowerCase()),
    has_account: query.has_account,
    groups: query.groups === undefined ? undefined : [query.groups].flat(),
  };
  // A q many customers match is read by walking the id order and counted by an estimate (search-breadth.ts).
  const breadth: Breadth = filters.q ? await q.customerSearchBreadth(ctx.db, filters) : {};
  const { rows, count, estimated } = await pageAndCount(
    page,
    breadth,
    async () => (page.limit === 0 ? [] : q.listCustomerRows(ctx.db, filters, page, walkLength(breadth, page))),
    () => q.countCustomers(ctx.db, filters),
  );
  return {
    customers: await withAddresses(ctx.db, rows),
    count,
    ...(estimated ? { count_estimated: true as const } : {}),
  };
}

export async function getCustomer(ctx: Ctx, id: string): Promise<Customer> {
  const row = await q.findLiveCustomer(ctx.db, id);
  if (!row) throw notFound(id);
  return (await withAddresses(ctx.db, [row]))[0];
}

/** Admin create: a customer without an account (a guest), recorded as created by the acting user or key. */
export async function createCustomer(ctx: Ctx, input: CustomerInput): Promise<Customer> {
  return inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const row = await q.insertCustomer(tctx.tx, {
      ...input,
      id: newId('cus'),
      email: input.email?.toLowerCase() ?? null,
      has_account: false,
      created_by: tctx.actor?.id ?? null,
      created_at: now,
      updated_at: now,
    });
    return emitted(tctx, 'customer.created', row);
  });
}

/** Whether the customer has an account (a guest has none; an unknown id is no account either). */
export async function hasAccount(db: Executor, id: string): Promise<boolean> {
  return (await q.findLiveCustomer(db, id))?.has_account === true;
}

/**
 * The guest customer with this email, created (event customer.created) when there is none, inside
 * the caller's transaction: Medusa's find-or-create, which an order moved to a guest goes through.
 */
export async function findOrCreateGuest(tctx: TxCtx, email: string, prefer: string | null = null): Promise<Customer> {
  const found = await q.findGuestByEmail(tctx.tx, email, prefer);
  if (found) return toCustomer(found);
  const now = tctx.clock.now();
  const row = await q.insertCustomer(tctx.tx, {
    id: newId('cus'),
    email: email.toLowerCase(),
    has_account: false,
    created_by: tctx.actor?.id ?? null,
    created_at: now,
    updated_at: now,
  });
  return emitted(tctx, 'customer.created', row);
}

/** Changes the given fields (admin, or a customer on itself through `/store/customers/me`). */
export async function updateCustomer(ctx: Ctx, id: string, input: CustomerInput): Promise<Customer> {
  return inTx(ctx, async (tctx) => {
    if (!(await q.lockLiveCustomer(tctx.tx, id))) throw notFound(id);
    const patch = {
      ...input,
      ...(input.email === undefined ? {} : { email: input.email.toLowerCase() }),
      updated_at: tctx.clock.now(),
    };
    const row = await guardAccountEmail(() => q.updateCustomerRow(tctx.tx, id, patch));
    return emitted(tctx, 'customer.updated', row, (await addressBooks(tctx.tx, [id])).get(id));
  });
}

/** Soft delete; the customer's logins are detached in the same transaction (they may sign up again). */
export async function deleteCustomer(ctx: Ctx, id: string): Promise<{ id: string; object: 'customer'; deleted: true }> {
  return inTx(ctx, async (tctx) => {
    if (!(await q.lockLiveCustomer(tctx.tx, id))) throw notFound(id);
    const now = tctx.clock.now();
    await q.softDeleteCustomerRow(tctx.tx, id, now);
    await q.unlinkIdentitiesOf(tctx.tx, id, now);
    await emit(tctx, 'customer.deleted', { id });
    return { id, object: 'customer' as const, deleted: true as const };
  });
}

/**
 * `POST /store/customers`: turns a registered login (token with an empty actor_id) into an
 * account holder. The account's email is the login's: a different one in the body is refused,
 * so nobody can take an email they did not register with.
 */
export async function createAccountCustomer(
  ctx: Ctx,
  auth: { actor_id: string; auth_identity_id: string; token_version?: number },
  input: CustomerInput,
): Promise<Customer> {
  if (auth.actor_id) throw errors.invalid('customer_already_authenticated');
  return inTx(ctx, async (tctx) => {
    const identity = await q.lockIdentity(tctx.tx, auth.auth_identity_id);
    // A register token from before a password reset is revoked like any other token of the login.
    if (!identity || !isCurrentToken(auth, identity.token_version)) throw errors.unauthorized('unauthorized');
    if (identity.customer_id) throw duplicateAccount();
    if (input.email !== undefined && input.email.toLowerCase() !== identity.email) {
      throw errors.invalid('customer_email_mismatch');
    }
    const now = tctx.clock.now();
    const values = {
      ...input,
      id: newId('cus'),
      email: identity.email,
      has_account: true,
      created_at: now,
      updated_at: now,
    };
    const row = await guardAccountEmail(() => q.insertCustomer(tctx.tx, values));
    await q.setIdentityCustomer(tctx.tx, identity.id, row.id, now);
    return emitted(tctx, 'customer.created', row);
  });
}

async function emitted(
  tctx: TxCtx,
  name: 'customer.created' | 'customer.updated',
  row: q.CustomerRow,
  addresses?: AddressView[],
): Promise<Customer> {
  const customer = toCustomer(row, addresses);
  await emit(tctx, name, { ...customer });
  return customer;
}
