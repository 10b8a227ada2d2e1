/** Row types of the plugin's module, inferred from its data models. */
import type { InferTypeOf } from "@medusajs/framework/types"
import type { LastmileTask } from "./models/lastmile-task"
import type { LastmileWebhookEvent } from "./models/lastmile-webhook-event"

export type LastmileTaskRow = InferTypeOf<typeof LastmileTask>
export type LastmileWebhookEventRow = InferTypeOf<typeof LastmileWebhookEvent>
