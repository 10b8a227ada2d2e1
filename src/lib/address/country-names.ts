/**
 * The service wants a country as a name ("United Kingdom"); Medusa holds ISO
 * 3166 alpha-2 codes. Names come from the platform's CLDR data (Intl).
 */
const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" })

/** ISO 3166 user-assigned codes (bar Kosovo's XK) and CLDR groupings name no country. */
const NOT_A_COUNTRY = /^(AA|Q[M-Z]|X[A-JL-Z]|ZZ|EU|EZ|UN)$/

/** "gb" → "United Kingdom"; undefined for a code that is not a country. */
export function countryName(countryCode: string | null | undefined): string | undefined {
  if (!countryCode || !/^[a-z]{2}$/i.test(countryCode)) {
    return undefined
  }
  const code = countryCode.toUpperCase()
  if (NOT_A_COUNTRY.test(code)) {
    return undefined
  }
  return names.of(code) ?? undefined
}
