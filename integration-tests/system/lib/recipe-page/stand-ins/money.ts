/** The starter's `@lib/util/money` in the recipe's test page: its `convertToLocale`, an amount in the shop's locale. */
export const convertToLocale = ({
  amount,
  currency_code,
  locale = "en-GB",
}: {
  amount: number
  currency_code: string
  locale?: string
}): string => new Intl.NumberFormat(locale, { style: "currency", currency: currency_code.toUpperCase() }).format(amount)
