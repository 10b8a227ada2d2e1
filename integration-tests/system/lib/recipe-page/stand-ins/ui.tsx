/** The starter's `@modules/common/components/ui` in the recipe's test page: Text, Heading and clx, as it exports them. */
import { type HTMLAttributes, createElement, forwardRef } from "react"

export const Text = forwardRef<
  HTMLParagraphElement,
  HTMLAttributes<HTMLParagraphElement> & { as?: "p" | "span" | "div" }
>(({ as = "p", ...props }, ref) => createElement(as, { ...props, ref }))

export const Heading = forwardRef<
  HTMLHeadingElement,
  HTMLAttributes<HTMLHeadingElement> & { level?: "h1" | "h2" | "h3" }
>(({ level = "h1", ...props }, ref) => createElement(level, { ...props, ref }))

export function clx(...inputs: unknown[]): string {
  return inputs
    .flatMap((input) =>
      typeof input === "string"
        ? [input]
        : input && typeof input === "object"
          ? Object.entries(input).flatMap(([name, on]) => (on ? [name] : []))
          : []
    )
    .join(" ")
}
