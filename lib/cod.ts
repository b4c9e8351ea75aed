/** Cash on delivery as the orders list shows it (`499.00 CZK`), or null when the order collects none. */
export function formatCod(price: number | null, currency: string | null): string | null {
  if (price === null) return null;
  return currency ? `${price.toFixed(2)} ${currency}` : price.toFixed(2);
}
