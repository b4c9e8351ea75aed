const integer = new Intl.NumberFormat("en-GB");
const percent = new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 });

export const formatCount = (value: number): string => integer.format(value);

/** A share as a percentage, or null when there is nothing to divide by (no attempts, no validations). */
export const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

export const formatRate = (value: number | null): string => (value === null ? "—" : percent.format(value));

/** An amount in its currency ("CZK 1,250.00"); a code Intl does not take is written after the number. */
export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-GB", { style: "currency", currency, currencyDisplay: "code" }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}
