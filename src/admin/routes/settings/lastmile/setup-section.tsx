import { Button, Checkbox, Container, Heading, Label, Select, Text, toast } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { type SetupReport, type SetupRequest, refreshLocationViews, sdk } from "../../../lib/sdk"

/** The return select's value for "the dispatch location" (a select item cannot have an empty value). */
const DISPATCH = "dispatch"

/**
 * One-click setup: the lastmile shipping options, the return option on the
 * location the merchant picks (the dispatch location by default) and the
 * linked locations in the sales channels the merchant ticks. It shows what
 * was created, what was already in place and what could not be done, or why
 * it stopped (nothing is left half-made).
 */
export const SetupSection = ({
  stockLocations,
  salesChannels,
  dispatch,
}: {
  stockLocations: { id: string; name: string }[]
  salesChannels: { id: string; name: string }[]
  dispatch: { id: string; name: string } | null
}) => {
  const client = useQueryClient()
  const [returnLocation, setReturnLocation] = useState(DISPATCH)
  const [channels, setChannels] = useState<string[]>([])
  const [error, setError] = useState<string | null>(null)
  const setup = useMutation({
    mutationFn: (body: SetupRequest) =>
      sdk.client.fetch<SetupReport>("/admin/lastmile/setup", { method: "POST", body }),
    onSuccess: (report) => {
      setError(null)
      toast.success(
        report.created.length ? `Created ${report.created.length} item(s)` : "Everything was already set up"
      )
      refreshLocationViews(client)
    },
    onError: (failure: Error) => {
      setError(failure.message)
      toast.error(failure.message)
    },
  })
  const run = () =>
    setup.mutate({
      ...(returnLocation !== DISPATCH ? { return_location_id: returnLocation } : {}),
      ...(channels.length ? { sales_channel_ids: channels } : {}),
    })
  const tick = (id: string, on: boolean) =>
    setChannels((ticked) => (on ? [...ticked.filter((c) => c !== id), id] : ticked.filter((c) => c !== id)))
  const report = setup.data

  return (
    <Container className="divide-y p-0" data-testid="lastmile-setup">
      <div className="px-6 py-4">
        <Heading level="h2">Set up shipping</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Creates the lastmile delivery, click &amp; collect and return options for the linked locations. Running it
          again creates only what is missing.
        </Text>
      </div>
      <div className="flex flex-col gap-y-2 px-6 py-4">
        <Label size="small" weight="plus" htmlFor="lastmile-return-location">
          Returns go to
        </Label>
        <div className="w-72">
          <Select size="small" value={returnLocation} onValueChange={setReturnLocation}>
            <Select.Trigger id="lastmile-return-location" data-testid="lastmile-setup-return-location">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              <Select.Item value={DISPATCH} data-testid="lastmile-setup-return-option-dispatch">
                {dispatch ? `The dispatch location (${dispatch.name})` : "The dispatch location"}
              </Select.Item>
              {stockLocations.map((location) => (
                <Select.Item
                  key={location.id}
                  value={location.id}
                  data-testid={`lastmile-setup-return-option-${location.id}`}
                >
                  {location.name}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
        </div>
      </div>
      <div
        className="flex flex-col gap-y-2 px-6 py-4"
        role="group"
        aria-labelledby="lastmile-setup-channels-heading"
        data-testid="lastmile-setup-channels"
      >
        <Text size="small" weight="plus" id="lastmile-setup-channels-heading">
          Add the linked locations to these sales channels
        </Text>
        {salesChannels.length ? (
          salesChannels.map((channel) => (
            <div key={channel.id} className="flex items-center gap-x-2">
              <Checkbox
                id={`lastmile-channel-${channel.id}`}
                checked={channels.includes(channel.id)}
                onCheckedChange={(on) => tick(channel.id, on === true)}
                data-testid={`lastmile-setup-channel-${channel.id}`}
              />
              <Label size="small" htmlFor={`lastmile-channel-${channel.id}`}>
                {channel.name}
              </Label>
            </div>
          ))
        ) : (
          <Text size="small" className="text-ui-fg-subtle">
            The store has no sales channel.
          </Text>
        )}
      </div>
      <div className="flex items-center justify-end px-6 py-4">
        <Button size="small" isLoading={setup.isPending} onClick={run} data-testid="lastmile-setup-submit">
          Set up shipping options
        </Button>
      </div>
      {error && (
        <div className="px-6 py-4">
          <Text size="small" className="text-ui-fg-error" data-testid="lastmile-setup-error">
            {error}
          </Text>
        </div>
      )}
      {report && !error && (
        <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="lastmile-setup-report">
          <ReportList title="Created" items={report.created} testId="lastmile-setup-created" />
          <ReportList title="Already in place" items={report.unchanged} testId="lastmile-setup-unchanged" />
          <ReportList title="Not done" items={report.skipped} testId="lastmile-setup-skipped" />
        </div>
      )}
    </Container>
  )
}

const ReportList = ({ title, items, testId }: { title: string; items: string[]; testId: string }) =>
  items.length ? (
    <div>
      <Text size="small" weight="plus">
        {title} ({items.length})
      </Text>
      <ul className="list-disc pl-5" data-testid={testId}>
        {items.map((item, i) => (
          <li key={i}>
            <Text size="small">{item}</Text>
          </li>
        ))}
      </ul>
    </div>
  ) : null
