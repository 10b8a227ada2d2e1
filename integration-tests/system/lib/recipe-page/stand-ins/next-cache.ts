/** `next/cache` in the recipe's test page: the page reads the cart again itself after a choice. */
export function revalidateTag(_tag: string): void {}
