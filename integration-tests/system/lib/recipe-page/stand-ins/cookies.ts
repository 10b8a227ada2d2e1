/** The starter's `@lib/data/cookies` in the recipe's test page: a guest shopper, no auth header, one cache tag. */
export const getAuthHeaders = async (): Promise<Record<string, never>> => ({})
export const getCacheTag = async (tag: string): Promise<string> => tag
