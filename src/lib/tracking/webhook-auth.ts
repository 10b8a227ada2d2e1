/**
 * Authenticating the service's webhooks: the URL's token compared in constant time and, when configured, an HMAC of
 * the raw body, hex or base64, with or without `sha256=` (the spec does not say).
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"

/** Hashing both sides first gives equal lengths, so the compare leaks neither content nor length. */
export function tokenMatches(given: string | undefined | null, expected: string | undefined | null): boolean {
  if (!given || !expected) {
    return false
  }
  const a = createHash("sha256").update(given).digest()
  const b = createHash("sha256").update(expected).digest()
  return timingSafeEqual(a, b)
}

export function signatureMatches(rawBody: Buffer, header: string | undefined | null, secret: string): boolean {
  return signatureMatchesDigest(createHmac("sha256", secret).update(rawBody).digest(), header)
}

/** The same check against a body's HMAC computed elsewhere (as the body streams in). */
export function signatureMatchesDigest(expected: Buffer, header: string | undefined | null): boolean {
  return signaturesIn(header).some(
    (decoded) => decoded.length === expected.length && timingSafeEqual(decoded, expected)
  )
}

/**
 * Whether a header holds anything that could be a signature: checked before
 * a byte of the body is read, so a request without one costs nothing.
 */
export function hasSignature(header: string | undefined | null): boolean {
  return signaturesIn(header).length > 0
}

/** A header may carry several signatures (e.g. during a secret rotation). */
function signaturesIn(header: string | undefined | null): Buffer[] {
  if (!header || header.length > 4096) {
    return []
  }
  return header
    .split(/[\s,]+/)
    .map((part) => part.replace(/^(sha256|v1)=/i, ""))
    .filter(Boolean)
    .flatMap((candidate) => {
      const decoded = decodeSignature(candidate)
      return decoded ? [decoded] : []
    })
}

function decodeSignature(value: string): Buffer | null {
  if (/^[0-9a-f]{64}$/i.test(value)) {
    return Buffer.from(value, "hex")
  }
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    return Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64")
  }
  return null
}

/** The signature the service would send: used by the simulator and tests. */
export function signBody(rawBody: string | Buffer, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`
}
