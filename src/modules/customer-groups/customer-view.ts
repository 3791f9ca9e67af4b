import { Type } from 'typebox';
import { Customer } from '../customers/schema.ts';
import { CustomerGroup } from './schema.ts';

/** The admin's customer: Medusa's, with the `groups` it is in. */
export const AdminCustomer = Type.Object({ ...Customer.properties, groups: Type.Array(CustomerGroup) });
export const AdminCustomerWithGroups = Type.Object({ customer: AdminCustomer });
