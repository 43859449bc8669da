// What an entity's column is to the requests and answers, said beside its @Column: TypeORM's metadata says the rest.
const ROLES = Symbol('columnRoles');

interface ColumnRole {
  requestField?: string;
  sealed?: boolean;
  exactTwin?: string;
}

export interface RequestColumn {
  /** The request's field, as add and PATCH take it. */
  field: string;
  /** The entity's property that stores it. */
  property: string;
  sealed: boolean;
}

function withRole(role: ColumnRole): PropertyDecorator {
  return (prototype, property) => {
    const roles = new Map(rolesOf(prototype.constructor));
    roles.set(String(property), { ...roles.get(String(property)), ...role });
    Reflect.defineMetadata(ROLES, roles, prototype.constructor);
  };
}

/** Stores the request's field of the same name: add writes it (its column's default when left out), PATCH changes it. */
export function FromRequest(): PropertyDecorator {
  return (prototype, property) => withRole({ requestField: String(property) })(prototype, property);
}

/** Stores the request's `field` sealed by SecretSealer for this column; no answer shows it. */
export function SealedFrom(field: string): PropertyDecorator {
  return withRole({ requestField: field, sealed: true });
}

/** The amount's exact twin, written with it and read before it (docs/architecture.md, The data layer, Money). */
export function ExactTwin<Twin extends string>(twin: Twin): (prototype: Record<Twin, unknown>, property: string) => void {
  return withRole({ exactTwin: twin });
}

function rolesOf(entity: object): Map<string, ColumnRole> {
  return (Reflect.getOwnMetadata(ROLES, entity) as Map<string, ColumnRole> | undefined) ?? new Map<string, ColumnRole>();
}

/** The columns requests write, in the order the entity declares them. */
export function requestColumnsOf(entity: abstract new () => unknown): RequestColumn[] {
  return [...rolesOf(entity)].flatMap(([property, { requestField, sealed }]) =>
    requestField === undefined ? [] : [{ field: requestField, property, sealed: sealed ?? false }],
  );
}

/** Each amount's exact twin, by the amount's property. */
export function exactTwinsOf(entity: abstract new () => unknown): Map<string, string> {
  return new Map([...rolesOf(entity)].flatMap(([property, { exactTwin }]) => (exactTwin === undefined ? [] : [[property, exactTwin]])));
}
