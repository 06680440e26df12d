import * as z from 'zod/mini'
import type { Sql, TransactionSql } from '../db/database.ts'
import {
  type DealerSettings,
  type DealerSettingsChange,
  dealerSettingsSchema,
  defaultDealerSettings,
} from '../../domain/dealer-settings.ts'
import { type Actor, recordChanges } from './audit.ts'

/**
 * The owner's settings, one row per key (migration 0017). A stored value that no longer fits
 * its schema (a setting whose shape changed) reads as its default rather than breaking the
 * console. Each change is in the audit log as entity `setting`, id the key, with before and after.
 */
const keys = Object.keys(defaultDealerSettings) as (keyof DealerSettings)[]

/** A stored value as its setting: parsed by its schema, else (absent, or no longer fitting) its default. */
function settingValue<K extends keyof DealerSettings>(key: K, value: unknown): DealerSettings[K] {
  if (value === undefined) return defaultDealerSettings[key]
  const parsed = z.safeParse(dealerSettingsSchema.shape[key], value)
  return parsed.success ? (parsed.data as DealerSettings[K]) : defaultDealerSettings[key]
}

/** One setting, for code that needs only it (lead routing, alerts); in a transaction, as of it. */
export async function readSetting<K extends keyof DealerSettings>(sql: Sql | TransactionSql, key: K): Promise<DealerSettings[K]> {
  const [row] = await sql<{ value: unknown }[]>`select value from dealer_settings where key = ${key}`
  return settingValue(key, row?.value)
}

export function createSettingsStore(sql: Sql) {
  function readRows(rows: readonly { key: string; value: unknown }[]): DealerSettings {
    const settings: Record<string, unknown> = { ...defaultDealerSettings }
    for (const { key, value } of rows) {
      if ((keys as string[]).includes(key)) settings[key] = settingValue(key as keyof DealerSettings, value)
    }
    return settings as DealerSettings
  }

  return {
    async get(): Promise<DealerSettings> {
      return readRows(await sql<{ key: string; value: unknown }[]>`select key, value from dealer_settings`)
    },

    /** Saves the settings given (already checked by the schema); the others keep their values. */
    async save(actor: Actor, change: DealerSettingsChange): Promise<DealerSettings> {
      return sql.begin(async (tx) => {
        const rows = await tx<{ key: string; value: unknown }[]>`select key, value from dealer_settings for update`
        const before = readRows(rows)
        for (const key of keys) {
          const after = change[key]
          if (after === undefined || JSON.stringify(after) === JSON.stringify(before[key])) continue
          await tx`
            insert into dealer_settings (key, value) values (${key}, ${tx.json(after)})
            on conflict (key) do update set value = excluded.value, updated_at = now()
          `
          await recordChanges(tx, actor, 'setting', key, [{ action: 'update', field: key, before: before[key], after }])
        }
        return readRows(await tx<{ key: string; value: unknown }[]>`select key, value from dealer_settings`)
      })
    },
  }
}

export type SettingsStore = ReturnType<typeof createSettingsStore>
