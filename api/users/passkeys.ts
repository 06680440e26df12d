import { randomBytes } from 'node:crypto'
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server'
import type { Sql, TransactionSql } from '../db/database.ts'
import { business } from '../../domain/business.ts'
import { controlCharacter } from '../../domain/plain-text.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'


/**
 * `@simplewebauthn/server` loads with the first passkey, not at every start: it took 0.6-2 s to
 * import, paid by every server process and every test that starts one (decision 0013).
 */
let webauthn: Promise<typeof import('@simplewebauthn/server')> | undefined
const simpleWebAuthn = () => (webauthn ??= import('@simplewebauthn/server'))

/**
 * Passkeys (WebAuthn) as a second sign-in step (PRODUCT.md, "second step"), with
 * `@simplewebauthn/server` (decision 0028). A passkey belongs to the site's host name, SITE_URL's
 * (the relying party id), and is accepted only from SITE_URL's origin: a passkey added at
 * https://jerseycartco.com signs nobody in anywhere else, not even through a look-alike site,
 * since the browser itself names the origin it was used on.
 *
 * It is a second step after a right password, so the authenticator's presence (a touch) is
 * asked and its own check of the person (a PIN, a fingerprint) is welcome but not required.
 * Each challenge works once and for 5 minutes.
 */
export const passkeyRules = { nameMax: 60, perAccount: 10, challengeMinutes: 5 } as const

export interface PasskeySummary {
  id: number
  name: string
  createdAt: string
  lastUsedAt: string | null
}

/** A passkey that could not be added, said to the person adding it. */
export class PasskeyError extends Error {
  override name = 'PasskeyError'
  constructor(
    message: string,
    /** The form's field the sentence belongs beside, when it is one. */
    readonly field?: 'name',
  ) {
    super(message)
  }
}

export const passkeyMessages = {
  name: 'Give the passkey a name, like “Work laptop” or “Blue key”: it tells your passkeys apart.',
  nameTooLong: `A passkey’s name has at most ${passkeyRules.nameMax} characters.`,
  tooMany: `An account can have ${passkeyRules.perAccount} passkeys: remove one first.`,
  expired: 'That took too long, or the page was open twice: press “Add a passkey” again.',
  refused: 'This browser’s answer was not a passkey for this site. Try again, or with another passkey.',
  again: 'That passkey is already added.',
}

/** The relying party: the site's host name, and the one origin passkeys are used from. */
export function relyingParty(siteUrl: string): { id: string; origin: string; name: string } {
  const url = new URL(siteUrl)
  return { id: url.hostname, origin: url.origin, name: business.name }
}

/** A passkey's name as kept: trimmed, spaces squeezed, no control characters. */
export function passkeyName(name: string): string {
  const trimmed = name.replace(/\s+/g, ' ').trim()
  if (!trimmed || controlCharacter.test(name)) throw new PasskeyError(passkeyMessages.name, 'name')
  if ([...trimmed].length > passkeyRules.nameMax) throw new PasskeyError(passkeyMessages.nameTooLong, 'name')
  return trimmed
}

const newChallenge = () => new Uint8Array(randomBytes(32))

export function createPasskeys(sql: Sql, siteUrl: string) {
  const rp = relyingParty(siteUrl)
  const fresh = `${passkeyRules.challengeMinutes} minutes`

  async function credentialsOf(userId: number) {
    return sql<{ credentialId: string; transports: string[] }[]>`
      select credential_id, transports from staff_passkeys where user_id = ${userId} order by id
    `
  }

  return {
    relyingParty: rp,

    async list(userId: number): Promise<PasskeySummary[]> {
      const rows = await sql<PasskeySummary[]>`
        select id, name, to_json(created_at) #>> '{}' as created_at, to_json(last_used_at) #>> '{}' as last_used_at
        from staff_passkeys where user_id = ${userId} order by created_at, id
      `
      return [...rows]
    },

    /**
     * What the browser needs to make a passkey for this account (navigator.credentials.create),
     * its challenge kept for 5 minutes. The account's passkeys are excluded, so one authenticator
     * is not added twice.
     */
    async registrationOptions(user: { id: number; username: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const [{ handle }] = await sql<[{ handle: Buffer }]>`
        update users set webauthn_user_id = coalesce(webauthn_user_id, ${randomBytes(32)})
        where id = ${user.id} returning webauthn_user_id as handle
      `
      const existing = await credentialsOf(user.id)
      const options = await (await simpleWebAuthn()).generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: user.username,
        userDisplayName: user.username,
        userID: new Uint8Array(handle),
        challenge: newChallenge(),
        attestationType: 'none',
        excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports as AuthenticatorTransportFuture[] })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        timeout: passkeyRules.challengeMinutes * 60_000,
      })
      await sql`
        insert into staff_passkey_challenges (user_id, challenge) values (${user.id}, ${options.challenge})
        on conflict (user_id) do update set challenge = excluded.challenge, created_at = now()
      `
      return options
    },

    /** Takes (spends) the challenge given to this account, if it is under 5 minutes old. */
    async takeChallenge(userId: number): Promise<string> {
      const [row] = await sql<{ challenge: string }[]>`
        delete from staff_passkey_challenges where user_id = ${userId} and created_at > now() - ${fresh}::interval
        returning challenge
      `
      if (!row) throw new PasskeyError(passkeyMessages.expired)
      return row.challenge
    },

    /**
     * Checks the browser's answer against the challenge taken for it and keeps the new passkey,
     * in the caller's transaction so the recovery codes of a first second step come with it.
     * Throws a PasskeyError with the sentence.
     */
    async register(
      tx: TransactionSql,
      userId: number,
      name: string,
      response: RegistrationResponseJSON,
      challenge: string,
      actor: Actor,
    ): Promise<PasskeySummary> {
      const kept = passkeyName(name)
      let verified
      try {
        verified = await (await simpleWebAuthn()).verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: false,
        })
      } catch {
        throw new PasskeyError(passkeyMessages.refused)
      }
      if (!verified.verified) throw new PasskeyError(passkeyMessages.refused)
      const { credential } = verified.registrationInfo
      // One at a time per account, so two browsers cannot both add the eleventh.
      await tx`select 1 from users where id = ${userId} for update`
      const [{ n }] = await tx<[{ n: number }]>`select count(*)::int as n from staff_passkeys where user_id = ${userId}`
      if (n >= passkeyRules.perAccount) throw new PasskeyError(passkeyMessages.tooMany)
      const [row] = await tx<PasskeySummary[]>`
        insert into staff_passkeys (user_id, credential_id, public_key, counter, transports, name)
        values (${userId}, ${credential.id}, ${Buffer.from(credential.publicKey)}, ${credential.counter},
          ${tx.array(credential.transports ?? [])}::text[], ${kept})
        on conflict (credential_id) do nothing
        returning id, name, to_json(created_at) #>> '{}' as created_at, null::text as last_used_at
      `
      if (!row) throw new PasskeyError(passkeyMessages.again)
      await recordChanges(tx, actor, 'account', userId, [{ action: 'create', field: 'passkey', after: kept }])
      return row
    },

    /** Removes one of the account's passkeys; false when it was not theirs or is gone. */
    async remove(tx: TransactionSql, userId: number, passkeyId: number, actor: Actor): Promise<boolean> {
      const [row] = await tx<{ name: string }[]>`delete from staff_passkeys where user_id = ${userId} and id = ${passkeyId} returning name`
      if (!row) return false
      await recordChanges(tx, actor, 'account', userId, [{ action: 'delete', field: 'passkey', before: row.name }])
      return true
    },

    /**
     * What the browser needs to sign in with one of the account's passkeys
     * (navigator.credentials.get), or undefined when it has none. The caller keeps the challenge.
     */
    async authenticationOptions(userId: number): Promise<PublicKeyCredentialRequestOptionsJSON | undefined> {
      const existing = await credentialsOf(userId)
      if (existing.length === 0) return undefined
      return (await simpleWebAuthn()).generateAuthenticationOptions({
        rpID: rp.id,
        allowCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports as AuthenticatorTransportFuture[] })),
        challenge: newChallenge(),
        userVerification: 'preferred',
        timeout: passkeyRules.challengeMinutes * 60_000,
      })
    },

    /**
     * Whether the browser's answer is a signature of `challenge` by one of this account's
     * passkeys. A right one records its use and its counter, which must have grown if the
     * authenticator keeps one (a copied key signs with an old count).
     */
    async verify(userId: number, response: AuthenticationResponseJSON, challenge: string): Promise<boolean> {
      const [stored] = await sql<{ id: number; publicKey: Buffer; counter: string; transports: string[] }[]>`
        select id, public_key, counter::text as counter, transports from staff_passkeys
        where user_id = ${userId} and credential_id = ${typeof response.id === 'string' ? response.id : ''}
      `
      if (!stored) return false
      try {
        const verified = await (await simpleWebAuthn()).verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: {
            id: response.id,
            publicKey: new Uint8Array(stored.publicKey),
            counter: Number(stored.counter),
            transports: stored.transports as AuthenticatorTransportFuture[],
          },
          requireUserVerification: false,
        })
        if (!verified.verified) return false
        // Recorded only if no other sign-in moved the counter past this one first.
        const used = await sql`
          update staff_passkeys set counter = ${verified.authenticationInfo.newCounter}, last_used_at = now()
          where id = ${stored.id} and (counter < ${verified.authenticationInfo.newCounter} or counter = 0) returning 1
        `
        return used.length > 0
      } catch {
        return false
      }
    },
  }
}

export type Passkeys = ReturnType<typeof createPasskeys>
