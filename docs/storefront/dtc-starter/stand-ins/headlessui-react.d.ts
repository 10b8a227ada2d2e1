// `@headlessui/react` 2's Radio and RadioGroup, as the recipe uses them: the group's value type is the options'.
import type { JSX, ReactNode } from "react"

export declare function RadioGroup<T>(props: {
  value?: T
  onChange?: (value: T) => void
  disabled?: boolean
  className?: string
  children?: ReactNode
}): JSX.Element
export declare function Radio<T>(props: {
  value: T
  disabled?: boolean
  className?: string
  children?: ReactNode
  "data-testid"?: string
}): JSX.Element
