// `next/cache`'s revalidateTag.
export declare function revalidateTag(tag: string): void
