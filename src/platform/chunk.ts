/** `items` in runs of at most `size`, in order: the rows of one multi-row statement, an IN list kept short. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
