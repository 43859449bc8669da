import { isShareBelow } from './signal-windows';

export interface Receipts {
  delivered: number;
  undelivered: number;
}

export interface DeliveryRateRules {
  minReceipts: number;
  demoteBelowMillionths: number;
}

/** delivered ÷ (delivered + undelivered), floored to 4 decimals; null under the receipts it takes to mean something. */
export function deliveryRateOf({ delivered, undelivered }: Receipts, { minReceipts }: DeliveryRateRules): number | null {
  const receipts = delivered + undelivered;
  if (receipts < minReceipts) return null;
  return Number((BigInt(delivered) * 10_000n) / BigInt(receipts)) / 10_000;
}

export function isDemoted(receipts: Receipts, rules: DeliveryRateRules): boolean {
  return (
    deliveryRateOf(receipts, rules) !== null &&
    isShareBelow(receipts.delivered, receipts.delivered + receipts.undelivered, rules.demoteBelowMillionths)
  );
}
