import { ValueTransformer } from 'typeorm';

/** mysql2 reads DECIMAL columns as strings; the API promises JSON numbers. */
export const decimalToNumber: ValueTransformer = {
  to: (value: number | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};
