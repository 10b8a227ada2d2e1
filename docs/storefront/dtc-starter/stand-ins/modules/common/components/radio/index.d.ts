// The starter's `@modules/common/components/radio`.
import type { JSX } from "react"

declare const Radio: (props: { checked: boolean; "data-testid"?: string }) => JSX.Element
export default Radio
