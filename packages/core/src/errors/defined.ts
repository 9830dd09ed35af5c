// `{ ...(x === undefined ? {} : { x }) }` once: optional fields stay absent, never `undefined`
// (exactOptionalPropertyTypes, and events or errors that serialise without `"x": undefined`).

/** `T` with every property that may be `undefined` made optional instead. */
export type Defined<T> = {
  [K in keyof T as undefined extends T[K] ? never : K]: T[K];
} & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** A copy of `object` without its `undefined` properties, in the same key order. */
export const defined = <T extends object>(object: T): Defined<T> =>
  Object.fromEntries(
    Object.entries(object).filter((entry) => entry[1] !== undefined),
  ) as Defined<T>;

/** `T` whose optional properties also take an explicit `undefined`, for {@link defined}. */
export type Loose<T> = { [K in keyof T]+?: T[K] | undefined } & {
  [K in keyof T as undefined extends T[K] ? never : K]-?: T[K];
};
