// The starter's `@lib/data/cookies`: the customer's auth header and the cache tags.
export declare const getAuthHeaders: () => Promise<{ authorization: string } | Record<string, never>>
export declare const getCacheTag: (tag: string) => Promise<string>
