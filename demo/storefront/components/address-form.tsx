import { Alert, Button, Hint, Input, Label, Text } from "@medusajs/ui"
import { type FormEvent, useState } from "react"
import { SAMPLE_SHOPPER, SHOPPER_COUNTRY, type ShopperDetails } from "../lib/shopper"
import { SectionCard } from "./section-card"

const FIELDS: { name: keyof ShopperDetails; label: string; type: string; autoComplete: string; hint?: string }[] = [
  { name: "firstName", label: "First name", type: "text", autoComplete: "given-name" },
  { name: "lastName", label: "Last name", type: "text", autoComplete: "family-name" },
  { name: "street", label: "Street address", type: "text", autoComplete: "address-line1" },
  { name: "city", label: "Town or city", type: "text", autoComplete: "address-level2" },
  { name: "postcode", label: "Postcode", type: "text", autoComplete: "postal-code" },
  { name: "email", label: "Email", type: "email", autoComplete: "email" },
  {
    name: "phone",
    label: "Phone",
    type: "tel",
    autoComplete: "tel",
    hint: "The courier texts you on the day.",
  },
]

/**
 * The shopper's name, address, email and phone; submitting saves them on the cart and loads the delivery step. A detail
 * the courier cannot use (a phone that cannot be dialled) is said beside its field, which is marked invalid.
 */
export function AddressForm({
  saved,
  onSubmit,
  fieldErrors = {},
}: {
  saved: boolean
  onSubmit: (details: ShopperDetails) => Promise<string | null>
  fieldErrors?: Partial<Record<keyof ShopperDetails, string>>
}) {
  const [details, setDetails] = useState<ShopperDetails>(SAMPLE_SHOPPER)
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaving(true)
    setError(await onSubmit(details))
    setSaving(false)
  }

  return (
    <SectionCard
      number={2}
      title="Your details"
      hint="Filled in with a sample London shopper. Try the postcode ZE1 0AA, or the phone 123, to see what a shopper is told."
      testId="address-section"
    >
      <form className="flex flex-col gap-y-4" onSubmit={(event) => void submit(event)}>
        <div className="grid grid-cols-2 gap-4">
          {FIELDS.map((field) => {
            const problem = fieldErrors[field.name]
            const described = [field.hint ? `${field.name}-hint` : null, problem ? `${field.name}-error` : null]
              .filter(Boolean)
              .join(" ")
            return (
              <div key={field.name} className="flex flex-col gap-y-1">
                <Label htmlFor={field.name} size="small" weight="plus">
                  {field.label}
                </Label>
                <Input
                  id={field.name}
                  name={field.name}
                  type={field.type}
                  autoComplete={field.autoComplete}
                  required
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={described || undefined}
                  value={details[field.name]}
                  onChange={(event) => setDetails({ ...details, [field.name]: event.target.value })}
                />
                {field.hint && <Hint id={`${field.name}-hint`}>{field.hint}</Hint>}
                {problem && (
                  <Text
                    size="small"
                    className="text-ui-fg-error"
                    id={`${field.name}-error`}
                    data-testid={`field-error-${field.name}`}
                  >
                    {field.label}: {problem}
                  </Text>
                )}
              </div>
            )
          })}
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="country" size="small" weight="plus">
              Country
            </Label>
            <Input id="country" name="country" value={SHOPPER_COUNTRY.name} disabled readOnly />
          </div>
        </div>
        {error && (
          <Alert variant="error">
            <span role="alert">{error}</span>
          </Alert>
        )}
        <div className="flex justify-end">
          <Button type="submit" isLoading={saving} data-testid="save-address">
            {saved ? "Update delivery options" : "Continue to delivery"}
          </Button>
        </div>
      </form>
    </SectionCard>
  )
}
