/** Money in responses: cents are what people read; sums of many float rows carry noise past that. */
export function roundMoney(value: number): number {
  return Math.round(value * 100) / 100
}
