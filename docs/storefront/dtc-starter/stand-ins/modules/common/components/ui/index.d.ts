// The starter's `@modules/common/components/ui`: Text and Heading (forwardRef), and clsx as clx.
import type { ForwardRefExoticComponent, HTMLAttributes, RefAttributes } from "react"

export declare const Text: ForwardRefExoticComponent<
  HTMLAttributes<HTMLParagraphElement> & { as?: "p" | "span" | "div" } & RefAttributes<HTMLParagraphElement>
>
export declare const Heading: ForwardRefExoticComponent<
  HTMLAttributes<HTMLHeadingElement> & { level?: "h1" | "h2" | "h3" } & RefAttributes<HTMLHeadingElement>
>
export declare function clx(...inputs: unknown[]): string
