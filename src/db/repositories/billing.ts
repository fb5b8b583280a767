import { desc, eq } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { billingLedger } from '../schema/index.ts'

export type LedgerRow = typeof billingLedger.$inferSelect
export type NewLedgerRow = typeof billingLedger.$inferInsert

export function createBillingRepository(db: Db) {
  return {
    async append(row: NewLedgerRow): Promise<LedgerRow> {
      const [created] = await db.insert(billingLedger).values(row).returning()
      return created
    },
    async listByAccount(accountId: string): Promise<LedgerRow[]> {
      return db.select().from(billingLedger).where(eq(billingLedger.accountId, accountId)).orderBy(desc(billingLedger.createdAt))
    },
  }
}
export type BillingRepository = ReturnType<typeof createBillingRepository>
