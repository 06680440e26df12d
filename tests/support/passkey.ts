import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server'

/**
 * A software passkey for tests without a browser: what an authenticator and the browser around
 * it answer to navigator.credentials.create and .get (WebAuthn Level 3, "none" attestation, an
 * ES256 key), built by hand from the specification so the server's checks meet real bytes.
 * `origin` is the page the browser would be on; the relying party id comes from the options.
 */
export class SoftPasskey {
  readonly id = randomBytes(32).toString('base64url')
  private readonly key: { privateKey: KeyObject; publicKey: KeyObject }
  counter = 0

  constructor(
    readonly origin: string,
    /** Whether the authenticator counts its signatures (many platform passkeys keep 0). */
    private readonly counts = true,
  ) {
    this.key = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  }

  private authData(rpId: string, attested?: Buffer): Buffer {
    if (this.counts) this.counter++
    const flags = 0x01 | 0x04 | (attested ? 0x40 : 0) // user present, user verified, attested data
    const count = Buffer.alloc(4)
    count.writeUInt32BE(this.counts ? this.counter : 0)
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)])
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  /** The answer to navigator.credentials.create with these options. */
  register(options: PublicKeyCredentialCreationOptionsJSON, origin = this.origin): RegistrationResponseJSON {
    const jwk = this.key.publicKey.export({ format: 'jwk' })
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ])
    const credentialId = Buffer.from(this.id, 'base64url')
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(credentialId.length)
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, Buffer.from(isoCBOR.encode(cose))])
    const attestation = new Map<string, string | Map<string, string> | Uint8Array>()
    attestation.set('fmt', 'none')
    attestation.set('attStmt', new Map<string, string>())
    attestation.set('authData', new Uint8Array(this.authData(options.rp.id!, attested)))
    const attestationObject = isoCBOR.encode(attestation)
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, origin).toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
    }
  }

  /** The answer to navigator.credentials.get with these options (a signature of the challenge). */
  authenticate(options: PublicKeyCredentialRequestOptionsJSON, origin = this.origin): AuthenticationResponseJSON {
    const authenticatorData = this.authData(options.rpId!)
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin)
    const signed = Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()])
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: sign('sha256', signed, this.key.privateKey).toString('base64url'),
      },
    }
  }
}
