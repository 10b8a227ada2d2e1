/**
 * The built-in catalogues with the merchant's `notifications.text` over them, a message's locale matched to one, and
 * the option checked at boot with one sentence per mistake (decision 59). */
import {
  type Catalogue,
  type CatalogueOverride,
  MESSAGE_IDS,
  MESSAGE_PLACEHOLDERS,
  type MessageId,
  type MessageWords,
  PHRASE_IDS,
  PHRASE_PLACEHOLDERS,
  type PhraseId,
  braceProblem,
  placeholdersOf,
} from "./catalogue"
import { EN_GB } from "./en-gb"
import { EN_US } from "./en-us"

export const BUILT_IN_CATALOGUES: Readonly<Record<string, Catalogue>> = { "en-GB": EN_GB, "en-US": EN_US }

export const DEFAULT_LOCALE = "en-GB"

/** The catalogues a store writes in, by locale (as the merchant spelt it), and its default locale. */
export interface Words {
  defaultLocale: string
  catalogues: Readonly<Record<string, Catalogue>>
}

/** `notifications.text` as the options hold it: per locale, messages by id and `phrases`. */
export type TextOption = Record<string, Record<string, unknown>>

function language(locale: string): string {
  return locale.split("-")[0].toLowerCase()
}

/** The locale among `available` that a message in `requested` is written in: the same, the same language, else none. */
export function matchLocale(requested: string | null | undefined, available: readonly string[]): string | null {
  const wanted = requested?.trim()
  if (!wanted) {
    return null
  }
  const exact = available.find((l) => l.toLowerCase() === wanted.toLowerCase())
  return exact ?? available.find((l) => language(l) === language(wanted)) ?? null
}

/** The catalogue of a message's locale, and that locale: the order's, else the store's default. */
export function catalogueFor(
  words: Words,
  locale: string | null | undefined
): { locale: string; catalogue: Catalogue } {
  const available = Object.keys(words.catalogues)
  const chosen = matchLocale(locale, available) ?? matchLocale(words.defaultLocale, available) ?? DEFAULT_LOCALE
  return { locale: chosen, catalogue: words.catalogues[chosen] ?? EN_GB }
}

function overrideOf(value: Record<string, unknown>): CatalogueOverride {
  const { phrases, ...messages } = value
  return {
    phrases: (phrases ?? {}) as CatalogueOverride["phrases"],
    messages: messages as CatalogueOverride["messages"],
  }
}

function merged(base: Catalogue, override: CatalogueOverride): Catalogue {
  const messages = { ...base.messages }
  for (const [id, words] of Object.entries(override.messages ?? {}) as [MessageId, Partial<MessageWords>][]) {
    messages[id] = { ...messages[id], ...words }
  }
  return { phrases: { ...base.phrases, ...override.phrases }, messages }
}

/**
 * The store's catalogues: the built-in ones, each locale of `text` over the built-in catalogue of its language (else
 * over the default locale's), so a message the merchant did not write reads in the default words rather than not at
 * all.
 */
export function buildWords(text: TextOption | undefined, defaultLocale = DEFAULT_LOCALE): Words {
  const catalogues: Record<string, Catalogue> = { ...BUILT_IN_CATALOGUES }
  const entries = Object.entries(text ?? {})
  const builtIn = Object.keys(BUILT_IN_CATALOGUES)
  for (const [locale, value] of entries) {
    const same = matchLocale(locale, builtIn)
    const base = same
      ? BUILT_IN_CATALOGUES[same]
      : (BUILT_IN_CATALOGUES[matchLocale(defaultLocale, builtIn) ?? ""] ?? EN_GB)
    const key = builtIn.find((l) => l.toLowerCase() === locale.toLowerCase()) ?? locale
    catalogues[key] = merged(catalogues[key] ?? base, overrideOf(value))
  }
  return { defaultLocale, catalogues }
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1 && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/i.test(value)
  } catch {
    return false
  }
}

function checkTemplate(where: string, template: unknown, allowed: readonly string[]): string[] {
  if (typeof template !== "string" || !template.trim()) {
    return [`${where} must be a non-empty string`]
  }
  const braces = braceProblem(template)
  if (braces) {
    return [`${where} ${braces}`]
  }
  const unknown = [...new Set(placeholdersOf(template).filter((name) => !allowed.includes(name)))]
  return unknown.map(
    (name) => `${where} uses {${name}}, which it does not have; it may use ${allowed.map((a) => `{${a}}`).join(", ")}`
  )
}

/** Every mistake in `notifications.text`, one sentence each (none: it is good). */
export function textOptionProblems(text: unknown): string[] {
  if (text === undefined) {
    return []
  }
  if (!text || typeof text !== "object" || Array.isArray(text)) {
    return ['notifications.text must map locales to words, like { "fr-FR": { "delivery_booked": { "subject": "…" } } }']
  }
  const problems: string[] = []
  for (const [locale, value] of Object.entries(text)) {
    const at = `notifications.text.${locale}`
    if (!isLocale(locale)) {
      problems.push(`${at}: "${locale}" is not a locale, like "fr-FR"`)
      continue
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      problems.push(`${at} must map messages to their words, like { "delivery_booked": { "subject": "…" } }`)
      continue
    }
    for (const [id, words] of Object.entries(value as Record<string, unknown>)) {
      if (id === "phrases") {
        if (!words || typeof words !== "object" || Array.isArray(words)) {
          problems.push(`${at}.phrases must map phrases to their words`)
          continue
        }
        for (const [phraseId, phraseText] of Object.entries(words)) {
          if (!(PHRASE_IDS as readonly string[]).includes(phraseId)) {
            problems.push(`${at}.phrases.${phraseId} is not a phrase; the phrases are ${PHRASE_IDS.join(", ")}`)
          } else {
            problems.push(
              ...checkTemplate(`${at}.phrases.${phraseId}`, phraseText, PHRASE_PLACEHOLDERS[phraseId as PhraseId])
            )
          }
        }
        continue
      }
      if (!(MESSAGE_IDS as string[]).includes(id)) {
        problems.push(`${at}.${id} is not a message; the messages are ${MESSAGE_IDS.join(", ")}`)
        continue
      }
      if (!words || typeof words !== "object" || Array.isArray(words)) {
        problems.push(`${at}.${id} must be { subject, text, sms } (any of them)`)
        continue
      }
      for (const [part, template] of Object.entries(words)) {
        if (part !== "subject" && part !== "text" && part !== "sms") {
          problems.push(`${at}.${id}.${part} is not a part of a message; use subject, text or sms`)
          continue
        }
        problems.push(...checkTemplate(`${at}.${id}.${part}`, template, MESSAGE_PLACEHOLDERS[id as MessageId]))
      }
    }
  }
  return problems
}
