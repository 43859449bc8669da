import { ValueTransformer } from 'typeorm';

/**
 * DECIMAL(18,6) as the API shows it: a JSON number. mysql2 reads DECIMAL as text ('12.500000'), which Number() turns
 * into the closest double; with at most 12 integer and 6 decimal digits (docs/interface.md) that double prints back as
 * exactly what was written. Written as given: the validation pipe has already refused what a double cannot hold.
 */
export const exactDecimal: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};
