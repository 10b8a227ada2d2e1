// The starter's `@modules/common/components/divider`.
import type { JSX } from "react"

declare const Divider: (props: { className?: string }) => JSX.Element
export default Divider
