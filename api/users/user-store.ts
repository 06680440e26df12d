import type { Sql } from '../db/database.ts'
import { hashPassword, verifyPassword } from './passwords.ts'

export function createUserStore(sql: Sql) {
  return {
    async add(username: string, password: string): Promise<{ id: number; username: string }> {
      const [row] = await sql<{ id: number; username: string }[]>`
        insert into users (username, password_hash)
        values (${username}, ${await hashPassword(password)})
        returning id, username
      `
      return row!
    },

    async verify(username: string, password: string): Promise<boolean> {
      const [row] = await sql<{ passwordHash: string }[]>`
        select password_hash from users where username = ${username}
      `
      return row ? verifyPassword(password, row.passwordHash) : false
    },
  }
}
