import { Button, Text } from "@medusajs/ui"
import { useState } from "react"
import type { LastmileCollectionCodeText, LastmileTrackingText } from "medusa-plugin-lastmile-storefront"
import { shown } from "../lib/shown-text"

/**
 * A collection's part of the confirmation: the store's own words for collecting there, and once it is ready, when to
 * collect it by and the code to show at the counter: large, in the two groups the messages write it in (drawn apart
 * by a margin, so a copy is the code itself), read out character by character to a screen reader ("A C E 4 7 9"),
 * with a button that copies it.
 */
export function CollectionPickup({ text }: { text: LastmileTrackingText }) {
  const code = text.collectionCode
  return (
    <>
      {text.instructions && (
        <Text size="small" className="text-ui-fg-subtle" data-testid="collection-instructions">
          From the store: {shown(text.instructions, 500)}
        </Text>
      )}
      {(code || text.collectBy) && (
        <dl
          className="border-ui-border-base bg-ui-bg-subtle flex flex-col gap-y-3 rounded-lg border p-4"
          data-testid="collection-ready"
        >
          {text.collectBy && (
            <div className="flex flex-col">
              <dt className="txt-small-plus text-ui-fg-subtle">Collect by</dt>
              <dd className="txt-medium-plus" data-testid="collect-by">
                {text.collectBy}
              </dd>
            </div>
          )}
          {code && (
            <div className="flex flex-col gap-y-1">
              <dt className="txt-small-plus text-ui-fg-subtle">{code.label}</dt>
              <dd className="flex flex-col gap-y-1">
                <CodeShown code={code} />
                <span className="txt-small text-ui-fg-subtle">{code.hint}</span>
              </dd>
            </div>
          )}
        </dl>
      )}
    </>
  )
}

function CodeShown({ code }: { code: LastmileCollectionCodeText }) {
  return (
    <span className="flex flex-wrap items-center gap-3">
      {/* For the eye and for a copy; a screen reader hears it one character at a time instead. */}
      <span className="lm-code" aria-hidden="true" data-testid="collection-code" data-code={code.code}>
        {code.groups.map((group, index) => (
          <span key={index}>{group}</span>
        ))}
      </span>
      <span className="sr-only" data-testid="collection-code-spoken">
        {code.spokenText}
      </span>
      <CopyCode code={code.code} />
    </span>
  )
}

/** Copies the code (where the browser lets the page write to the clipboard), and says so. */
function CopyCode({ code }: { code: string }) {
  const [copied, setCopied] = useState<string | null>(null)
  if (typeof navigator === "undefined" || !navigator.clipboard) {
    return null
  }
  const copy = () =>
    navigator.clipboard.writeText(code).then(
      () => setCopied("Code copied."),
      () => setCopied("The code could not be copied: select it and copy it instead.")
    )
  return (
    <span className="flex items-center gap-x-2">
      <Button type="button" size="small" variant="secondary" onClick={() => void copy()} data-testid="copy-code">
        Copy code
      </Button>
      <span role="status" className="txt-small text-ui-fg-subtle">
        {copied}
      </span>
    </span>
  )
}
