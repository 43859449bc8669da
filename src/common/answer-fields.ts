export function inFieldOrder<F extends string, V extends Record<F, unknown>>(fields: readonly F[], values: V): Pick<V, F> {
  const shown = {} as Pick<V, F>;
  for (const field of fields) shown[field] = values[field];
  return shown;
}
