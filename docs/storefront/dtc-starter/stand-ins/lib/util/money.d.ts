// The starter's `@lib/util/money`.
export declare const convertToLocale: (input: {
  amount: number
  currency_code: string
  minimumFractionDigits?: number
  maximumFractionDigits?: number
  locale?: string
}) => string
