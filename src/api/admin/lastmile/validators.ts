import { z } from "zod"

export const CollectionSwitch = z.object({ enabled: z.boolean() }).strict()
export type CollectionSwitchType = z.infer<typeof CollectionSwitch>
