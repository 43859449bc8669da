/**
 * The fields' values, in the fields' order: an answer's list of fields (beside its DTO) says what it shows and in which
 * order its JSON shows it, whatever else the values hold.
 */
export function inFieldOrder<F extends string, V extends Record<F, unknown>>(fields: readonly F[], values: V): Pick<V, F> {
  const shown = {} as Pick<V, F>;
  for (const field of fields) shown[field] = values[field];
  return shown;
}
