/** The starter's `@modules/common/components/divider` in the recipe's test page. */
export default function Divider({ className }: { className?: string }) {
  return <div className={`h-px w-full border-b border-gray-200 ${className ?? ""}`} />
}
