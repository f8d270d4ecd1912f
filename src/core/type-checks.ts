/**
 * Compile-time checks that a public interface (a name for editors to show) and the type zod infers from its schema (the rules' one source)
 * agree: `type _Checked = Assert<IsExactly<OrganizationInvitation, z.infer<typeof OrganizationInvitationSchema>>>;` fails when they drift.
 */

/** `true` when `A` and `B` are the same type (optional members, `undefined` and `readonly` included), else `false`. */
export type IsExactly<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when `T` is `true`. */
export type Assert<T extends true> = T;

/**
 * `T` without the index signatures zod's loose objects add, at every depth: responses keep unknown members at run time (forward
 * compatibility), but their types name only the known ones, so a typo such as `tokens.expiresIn` does not compile.
 */
export type KnownMembers<T> = T extends string | number | boolean | bigint | symbol | null | undefined
  ? T
  : T extends readonly (infer Item)[]
    ? KnownMembers<Item>[]
    : T extends object
      ? [NamedKeys<T>] extends [never]
        ? T // a free-form record (`Record<string, unknown>`): its index signature is what it is
        : { [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: KnownMembers<T[K]> }
      : T;

/** The keys of `T` that are names, not index signatures. */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: 0 } &
  keyof T;
