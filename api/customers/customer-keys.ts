import { phoneKey } from '../../domain/phone-number.ts'
import type { TransactionSql } from '../db/database.ts'

/**
 * One customer per person (PRODUCT.md, "customers"): a lead with the email or the phone of a
 * customer's lead is that customer's. A customer is known by its keys (table `customer_keys`,
 * migration 0036): every email (lower case) and phone (`phoneKey`, digits only) its leads gave.
 */
export interface CustomerKey {
  kind: 'email' | 'phone'
  value: string
}

export function customerKeysOf(person: { email: string; phone?: string | null }): CustomerKey[] {
  const phone = phoneKey(person.phone)
  const keys: CustomerKey[] = [{ kind: 'email', value: person.email.trim().toLowerCase() }]
  if (phone) keys.push({ kind: 'phone', value: phone })
  return keys
}

/** Any fixed number: the advisory locks of customer keys are (this, hashtext(key)). */
const customerLockSpace = 727_050

/**
 * Joins a stored lead to its customer, in the lead's own transaction, and returns the customer.
 *
 * Leads of one new shopper arriving at once on several processes make one customer: each key's
 * advisory lock is taken first (in one order, so two leads never wait for each other crosswise),
 * so the second waits until the first has committed its customer and then finds it. A lead whose
 * keys belong to two customers (an email of one, the phone of another) shows they are one person:
 * the younger is merged into the older, its keys and leads moved. Every table with a customer_id
 * is moved here. The customers found are locked before anything is moved, so a merge and a lead
 * joining the merged customer through another key wait for each other; one that finds its
 * customer merged away since it looked (a row fewer) looks again.
 */
export async function joinCustomer(tx: TransactionSql, leadId: number, person: { email: string; phone?: string | null }): Promise<number> {
  const keys = customerKeysOf(person).sort((a, b) => `${a.kind}:${a.value}`.localeCompare(`${b.kind}:${b.value}`))
  for (const key of keys) await tx`select pg_advisory_xact_lock(${customerLockSpace}, hashtext(${`${key.kind}:${key.value}`}))`
  const matching = keys.map((key) => tx`(kind = ${key.kind} and value = ${key.value})`).reduce((a, b) => tx`${a} or ${b}`)
  for (;;) {
    const found = (await tx<{ customerId: number }[]>`select distinct customer_id from customer_keys where ${matching}`)
      .map((row) => row.customerId)
      .sort((a, b) => a - b)
    let customer: number
    if (found.length === 0) {
      ;[{ id: customer }] = await tx<[{ id: number }]>`insert into customers default values returning id`
    } else {
      const locked = await tx<{ id: number }[]>`select id from customers where id in ${tx(found)} order by id for update`
      if (locked.length !== found.length) continue
      customer = found[0]!
      const others = found.slice(1)
      if (others.length > 0) {
        await tx`update customer_keys set customer_id = ${customer} where customer_id in ${tx(others)}`
        await tx`update contact_inquiries set customer_id = ${customer} where customer_id in ${tx(others)}`
        await tx`delete from customers where id in ${tx(others)}`
      }
    }
    await tx`
      insert into customer_keys ${tx(keys.map((key) => ({ kind: key.kind, value: key.value, customer_id: customer })))}
      on conflict (kind, value) do nothing
    `
    await tx`update contact_inquiries set customer_id = ${customer} where id = ${leadId}`
    return customer
  }
}
